import { feedCurrency } from "../FeedRequest.ts"
import { Effect, Result, Schema } from "effect"
import type { PublishStep } from "../publish/CatalogPublisher.ts"
import { type LoaderStores, loaderStores } from "../publish/LoaderStores.ts"
import { PipelineError } from "../errors.ts"
import type { FeedLoader, LoadInput, LoadResult } from "../FeedLoaders.ts"
import { readFirstLine, splitHeader } from "../products/stageDelimited.ts"
import { checkThreshold, describeIssues, type Rejection, recordRejections, rule } from "../Rejections.ts"

// Past price observations (product_id or product_key, observed_at, price[, currency]) from
// a CSV: the history the deals logic needs before our own observations
// accumulate. A run replaces everything this feed imported before (rows of
// price_history whose run belongs to this feed); observations the product
// pipelines made are never touched. The feed's earlier runs are listed from
// pipeline_runs in the system of record (staging has no run records).

const PriorRun = Schema.Struct({ id: Schema.String })

/** This run's observations replace those of the feed's earlier runs. */
const publishedBy = (feed: string, runId: string): ReadonlyArray<PublishStep> => [
  {
    table: "price_history",
    remove: { where: "run_id IN (SELECT id FROM pipeline_runs WHERE feed = $1 AND id <> $2)", params: [feed, runId] },
    copy: { where: "run_id = $1", params: [runId] }
  }
]

const REQUIRED = ["observed_at", "price"]

const required = Schema.String.annotate({ message: "is required" })
const PRICE = /^[0-9]{1,12}(\.[0-9]{1,4})?( [A-Z]{3})?$/

const PriceRow = (defaultCurrency: string | undefined) =>
  Schema.Struct({
    product_id: required.check(
      rule((v: string) => v.length >= 1, "is required"),
      rule((v: string) => v.length <= 200, "must be at most 200 characters")
    ),
    observed_at: required.check(rule((v: string) => !Number.isNaN(Date.parse(v)), "must be an ISO 8601 date")),
    price: required.check(rule((v: string) => PRICE.test(v), 'must look like "15.00" or "15.00 USD"')),
    currency: Schema.NullOr(Schema.String).check(
      rule((v: string | null) => v === null || /^[A-Z]{3}$/.test(v), "must be an ISO 4217 code")
    )
  }).check(
    Schema.makeFilter(
      (row) =>
        row.price.includes(" ") ||
        row.currency !== null ||
        defaultCurrency !== undefined || { path: ["currency"], issue: "is required (or set options.currency)" }
    )
  )

/** A valid row as it is staged: the amount, its currency (from the price, the column or the feed), the instant in UTC. */
const observation = (row: ReturnType<typeof PriceRow>["Type"], defaultCurrency: string | undefined) => {
  const [amount, suffix] = row.price.split(" ")
  return {
    product_id: row.product_id,
    observed_at: new Date(row.observed_at).toISOString(),
    price: amount,
    currency: suffix ?? row.currency ?? defaultCurrency ?? "" // never "": the check above requires one of them
  }
}

const loadPriceHistory = (
  { db, staging, publisher }: LoaderStores,
  input: LoadInput
): Effect.Effect<LoadResult, PipelineError> => {
  const { feed, runId } = input
  const fail = (stage: "parse" | "load", message: string) => new PipelineError({ feed: feed.name, stage, message })
  return Effect.gen(function* () {
    const header = yield* Effect.tryPromise({
      try: () => readFirstLine(input.file, input.gzip),
      catch: (cause) => fail("parse", `cannot read the header: ${(cause as Error).message}`)
    })
    const columns = splitHeader(header, ",").map((c) => c.toLowerCase())
    const idColumn = ["product_id", "product_key"].find((c) => columns.includes(c))
    const missing = [...(idColumn === undefined ? ["product_id"] : []), ...REQUIRED.filter((c) => !columns.includes(c))]
    if (missing.length > 0) {
      const hint =
        columns.length <= 1 && /[\t;|]/.test(header) ? " (wrong delimiter? this format is comma-separated)" : ""
      return yield* fail(
        "parse",
        `missing required columns: ${missing.join(", ")}${hint}; header: ${header.slice(0, 200)}`
      )
    }
    const spec = `{${columns.map((c) => `'${c.replace(/'/g, "''")}': 'VARCHAR'`).join(", ")}}`
    const rows = yield* staging
      .query<Record<string, string | null>>(
        `SELECT ${idColumn} AS product_id, ${REQUIRED.join(", ")}, ${columns.includes("currency") ? "currency" : "NULL AS currency"}
       FROM read_csv($file, delim=',', quote='"', escape='"', header=true, auto_detect=false, columns=${spec},
                     compression=${input.gzip ? "'gzip'" : "'none'"})`,
        { file: input.file }
      )
      .pipe(Effect.mapError((error) => fail("parse", error.message)))
    input.progress(rows.length)
    const decode = Schema.decodeUnknownResult(PriceRow(feedCurrency(feed)), { errors: "all" })
    const valid: Array<ReturnType<typeof observation>> = []
    const rejections: Array<Rejection> = []
    rows.forEach((row, index) => {
      const parsed = decode(row)
      if (Result.isSuccess(parsed)) valid.push(observation(parsed.success, feedCurrency(feed)))
      else rejections.push({ line: index + 2, reason: describeIssues(parsed.failure.issue), raw: JSON.stringify(row) })
    })
    yield* recordRejections(db, runId, feed.name, rejections)
    yield* checkThreshold(feed, rows.length, rejections.length)
    const priorRuns = yield* db
      .queryAs(PriorRun, "SELECT id FROM pipeline_runs WHERE feed = $1 AND id <> $2", [feed.name, runId])
      .pipe(Effect.mapError((error) => fail("load", error.message)))
    yield* publisher.replace(
      feed.name,
      (tx) =>
        Effect.gen(function* () {
          if (priorRuns.length > 0) {
            yield* tx.run(`DELETE FROM price_history WHERE run_id IN ${tx.jsonList("$1")}`, [
              JSON.stringify(priorRuns.map((run) => run.id))
            ])
          }
          yield* tx.run(
            "CREATE OR REPLACE TEMP TABLE _stage_prices (product_id VARCHAR, observed_at VARCHAR, price VARCHAR, currency VARCHAR)"
          )
          yield* tx.append("_stage_prices", (appender) => {
            for (const row of valid) {
              appender.appendVarchar(row.product_id)
              appender.appendVarchar(row.observed_at)
              appender.appendVarchar(row.price)
              appender.appendVarchar(row.currency)
              appender.endRow()
            }
          })
          yield* tx.run(
            `INSERT INTO price_history
           SELECT product_id, observed_at::TIMESTAMPTZ, price::DECIMAL(18,4), currency, $1 FROM _stage_prices`,
            [runId]
          )
          yield* tx.run("DROP TABLE _stage_prices")
        }),
      () => publishedBy(feed.name, runId)
    )
    return { rowsRead: rows.length, rowsLoaded: valid.length, rowsRejected: rejections.length }
  })
}

export const PriceHistoryLoader = Effect.gen(function* () {
  const stores = yield* loaderStores
  return { kind: "price_history", load: (input) => loadPriceHistory(stores, input) } satisfies FeedLoader
})
