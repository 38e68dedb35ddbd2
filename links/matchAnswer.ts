import { landingPageFor } from "../domain/matching/resolve.ts"
import type { PublicUrl } from "../infra/PublicUrl.ts"
import { type LinkMatch, noMatchMessages } from "./LinkMatching.ts"

/** Where a visitor's market came from, as the match answers say it. */
export type VisitorMarketSource = "parameter" | "accept-language" | "default"

/**
 * The answer to a match request, as POST /api/v1/links/match sends it and the
 * MCP tool match_link returns it (an invalid URL is the caller's 400 / tool error).
 */
export const matchAnswer = (
  publicUrl: PublicUrl["Service"],
  originalUrl: string,
  result: Exclude<LinkMatch, { readonly kind: "invalid" }>,
  /** Where the visitor's market came from (a country parameter, Accept-Language, DEFAULT_COUNTRY). */
  visitorSource: VisitorMarketSource = "parameter"
) => {
  const market: { readonly country: string; readonly source: "url" | VisitorMarketSource } | null =
    result.market === undefined
      ? null
      : { country: result.market.country, source: result.market.source === "url" ? "url" : visitorSource }
  if (result.kind === "unmatched") {
    return {
      matched: false as const,
      reason: result.reason,
      message: noMatchMessages[result.reason],
      original_url: originalUrl,
      destination_url: result.normalizedUrl,
      market,
      program: null,
      link: null
    }
  }
  const { created, link, selection } = result
  return {
    matched: true as const,
    program: {
      id: selection.program.id,
      number: selection.program.number ?? null,
      name: selection.program.name,
      network: selection.network.id,
      domain: selection.domain,
      commission_type: selection.program.commissionType,
      country: selection.program.country
    },
    market,
    link: {
      tracking_id: link.id,
      tracking_url: publicUrl.to(`/t/${link.id}`),
      affiliate_url: link.affiliateUrl,
      original_url: originalUrl,
      destination_url: link.destinationUrl,
      deep_link: selection.program.deepLinkAllowed,
      lands_on: landingPageFor(selection, link.destinationUrl)
    },
    created
  }
}
