import { Effect } from "effect"
import { AppConfig } from "../infra/AppConfig.ts"
import { Database } from "../infra/Database.ts"
import { forEachInSlices } from "../infra/yieldToEventLoop.ts"
import { PipelineError } from "../pipelines/errors.ts"
import type { FeedLoader, LoadInput } from "../pipelines/FeedLoaders.ts"
import { feedCurrency } from "../pipelines/FeedRequest.ts"
import { checkThreshold, type Rejection, recordRejections } from "../pipelines/Rejections.ts"
import { upsertWithCorrections } from "./ConversionCorrections.ts"
import { reattributeConversions } from "./ConversionLedger.ts"
import { unstorable } from "./ledgerRows.ts"
import { retryingDeadlocks } from "./ledgerWrites.ts"
import type { ReportFormat } from "./reports/index.ts"
import { parseReportInWorker } from "./reports/parseInWorker.ts"
import { ReportingRates } from "./ReportingRates.ts"

// The `conversions` feed kind: network reports read on a schedule by the
// pipeline runner. Unlike catalog feeds a report is a window of transactions,
// not the whole truth, so a run upserts (by '{network}:{tx id}') instead of
// replacing the feed's rows; a failed run writes nothing. Rejected rows (with
// their line, or item number for JSON) go to rejected_rows like any feed's.

/** Feed `format` -> report parser, and the network a format implies. */
export const CONVERSION_FORMATS: Record<string, { readonly parser: ReportFormat; readonly network?: string }> = {
  "awin-transactions": { parser: "awin", network: "awin" },
  "cj-commissions": { parser: "cj", network: "cj" },
  "impact-actions": { parser: "impact", network: "impact" },
  "rakuten-signature-orders": { parser: "rakuten", network: "rakuten" },
  "partnerize-conversions": { parser: "partnerize", network: "partnerize" },
  "skimlinks-commissions": { parser: "skimlinks", network: "skimlinks" },
  "ebay-transaction-detail": { parser: "ebay", network: "ebay-partner-network" },
  "conversions-generic": { parser: "generic" }
}

const NETWORK_SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/

export const ConversionReportLoader = Effect.gen(function* () {
  const db = yield* Database
  const config = yield* AppConfig
  const rates = yield* ReportingRates.load(config.ratesConfigPath, config.reportingCurrency)

  const load = (input: LoadInput) =>
    Effect.gen(function* () {
      const { feed, runId } = input
      const fail = (stage: "parse" | "validate" | "load", message: string) =>
        new PipelineError({ feed: feed.name, stage, message })
      const format = CONVERSION_FORMATS[feed.format]
      if (format === undefined) return yield* fail("parse", `unknown conversions format ${feed.format}`)
      // options.network: the network id stored on every record (defaults per format; required for the generic one
      // unless every row names its network).
      const network = typeof feed.options.network === "string" ? feed.options.network : (format.network ?? feed.name)
      if (!NETWORK_SLUG.test(network))
        return yield* fail("parse", `options.network must be a network id, got ${network}`)

      const report = yield* parseReportInWorker({
        file: input.file,
        gzip: input.gzip,
        format: format.parser,
        options: { network, currency: feedCurrency(feed) },
        nice: config.backgroundNice
      }).pipe(Effect.mapError((message) => fail("parse", message)))
      input.progress(report.rowsRead)

      // A currency without a reporting rate (or an overflowing amount) is the row's problem, found before anything is written.
      // A slice of records at a time: the loader runs in the process that answers requests.
      const rejections: Array<Rejection> = [...report.rejected]
      const records: typeof report.records = []
      yield* forEachInSlices(report.records, ({ line, record }) => {
        const problem = unstorable(rates, record)
        if (problem === undefined) records.push({ line, record })
        else rejections.push({ line, reason: problem })
      })
      rejections.sort((a, b) => a.line - b.line)
      yield* recordRejections(db, runId, feed.name, rejections)
      yield* checkThreshold(feed, report.rowsRead, rejections.length)

      const result = yield* retryingDeadlocks(
        db.transaction((tx) =>
          Effect.gen(function* () {
            const loaded = yield* upsertWithCorrections(
              tx,
              rates,
              records.map(({ record }) => record),
              feed.name
            )
            return { ...loaded, reattributed: yield* reattributeConversions(tx, rates) }
          })
        )
      ).pipe(Effect.mapError((error) => fail("load", error.message)))
      yield* Effect.logInfo("conversions report loaded").pipe(
        Effect.annotateLogs({
          event: "conversions_loaded",
          feed: feed.name,
          inserted: result.inserted,
          updated: result.updated,
          unchanged: result.unchanged,
          stale: result.stale,
          corrections: result.corrections.recorded,
          correctedElsewhere: result.corrections.applied,
          reattributed: result.reattributed
        })
      )
      return { rowsRead: report.rowsRead, rowsLoaded: records.length, rowsRejected: rejections.length }
    })

  return { kind: "conversions", load } satisfies FeedLoader
})
