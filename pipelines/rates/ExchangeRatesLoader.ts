import { Effect } from "effect"
import { readFile } from "node:fs/promises"
import { gunzipSync } from "node:zlib"
import { parseEcbRates } from "../../domain/money/exchangeRates.ts"
import { PipelineError } from "../errors.ts"
import type { FeedLoader, LoadInput, LoadResult } from "../FeedLoaders.ts"
import { byFeed } from "../publish/CatalogPublisher.ts"
import { type LoaderStores, loaderStores } from "../publish/LoaderStores.ts"
import { checkThreshold, type Rejection, recordRejections } from "../Rejections.ts"

// Reference exchange rates (kind exchange_rates, format ecb-xml): the
// European Central Bank's daily euro reference rates, one row per currency
// in exchange_rates, replaced whole by each run of the feed. Search orders
// prices of several currencies by them (domain/money/exchangeRates.ts).

/** A file larger than this is not a reference-rates file (the daily one is ~2 KB, the full history ~600 KB). */
const MAX_BYTES = 5_000_000
const CURRENCY = /^[A-Z]{3}$/
const RATE = /^[0-9]{1,10}(\.[0-9]{1,8})?$/

const loadRates = ({ db, publisher }: LoaderStores, input: LoadInput): Effect.Effect<LoadResult, PipelineError> => {
  const { feed, runId } = input
  const fail = (stage: "parse" | "load", message: string) => new PipelineError({ feed: feed.name, stage, message })
  return Effect.gen(function* () {
    const bytes = yield* Effect.tryPromise({
      try: () => readFile(input.file),
      catch: (cause) => fail("parse", `cannot read the file: ${(cause as Error).message}`)
    })
    if (bytes.length > MAX_BYTES) return yield* fail("parse", `the file is over ${MAX_BYTES} bytes`)
    const text = yield* Effect.try({
      try: () => (input.gzip ? gunzipSync(bytes, { maxOutputLength: MAX_BYTES }) : bytes).toString("utf8"),
      catch: (cause) => fail("parse", `cannot decompress the file: ${(cause as Error).message}`)
    })
    const parsed = parseEcbRates(text)
    if (parsed === undefined)
      return yield* fail("parse", "no <Cube time='YYYY-MM-DD'> with rates: not an ECB reference-rates file")
    input.progress(parsed.lines.length)
    const valid = new Map<string, string>()
    const rejections: Array<Rejection> = []
    parsed.lines.forEach((line, index) => {
      const reason = !CURRENCY.test(line.currency)
        ? "currency: must be an ISO 4217 code"
        : !RATE.test(line.rate) || Number(line.rate) <= 0
          ? "rate: must be a positive decimal"
          : valid.has(line.currency) || line.currency === "EUR"
            ? "currency: listed twice"
            : undefined
      if (reason === undefined) valid.set(line.currency, line.rate)
      else rejections.push({ line: index + 1, reason, raw: JSON.stringify(line) })
    })
    yield* recordRejections(db, runId, feed.name, rejections)
    yield* checkThreshold(feed, parsed.lines.length, rejections.length)
    yield* publisher.replace(
      feed.name,
      (tx) =>
        Effect.gen(function* () {
          yield* tx.run("DELETE FROM exchange_rates WHERE feed = $1", [feed.name])
          for (const [currency, rate] of valid) {
            yield* tx.run(
              "INSERT INTO exchange_rates (currency, per_eur, as_of, feed, run_id) VALUES ($1, CAST($2 AS DECIMAL(18,8)), CAST($3 AS DATE), $4, $5)",
              [currency, rate, parsed.asOf, feed.name, runId]
            )
          }
        }),
      () => byFeed(feed.name, ["exchange_rates"])
    )
    return { rowsRead: parsed.lines.length, rowsLoaded: valid.size, rowsRejected: rejections.length }
  })
}

export const ExchangeRatesLoader = Effect.gen(function* () {
  const stores = yield* loaderStores
  return { kind: "exchange_rates", load: (input) => loadRates(stores, input) } satisfies FeedLoader
})
