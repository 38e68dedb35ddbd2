import { parseAwin } from "./awin.ts"
import { parseCj } from "./cj.ts"
import { parseEbay } from "./ebay.ts"
import { parseGeneric } from "./generic.ts"
import { parseImpact } from "./impact.ts"
import { parsePartnerize } from "./partnerize.ts"
import { parseRakuten } from "./rakuten.ts"
import { parseSkimlinks } from "./skimlinks.ts"
import type { ParsedReport, ReportOptions } from "./Report.ts"

export { ReportError, type ParsedReport, type ReportOptions } from "./Report.ts"

export const REPORT_FORMATS = ["awin", "cj", "impact", "rakuten", "partnerize", "skimlinks", "ebay", "generic"] as const
export type ReportFormat = (typeof REPORT_FORMATS)[number]

const parsers: Record<ReportFormat, (content: string, options: ReportOptions) => ParsedReport> = {
  awin: parseAwin,
  cj: parseCj,
  impact: parseImpact,
  rakuten: parseRakuten,
  partnerize: parsePartnerize,
  skimlinks: parseSkimlinks,
  ebay: parseEbay,
  generic: parseGeneric
}

/** Parses a conversion report in one network's own shape into normalised records. */
export const parseReport = (format: ReportFormat, content: string, options: ReportOptions): ParsedReport =>
  parsers[format](content, options)
