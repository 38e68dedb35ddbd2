import { feedCurrency } from "../FeedRequest.ts"
import { Effect, Schema } from "effect"
import type { PublishStep } from "../publish/CatalogPublisher.ts"
import { type LoaderStores, loaderStores } from "../publish/LoaderStores.ts"
import { PipelineError } from "../errors.ts"
import type { FeedLoader, LoadInput, LoadResult } from "../FeedLoaders.ts"
import { readFirstLine, splitHeader } from "../products/stageDelimited.ts"
import { checkThreshold, type Rejection, recordRejections } from "../Rejections.ts"
import { type Observation, priceRowJudge, priceRowPrecheck, stagedObservation } from "./PriceRow.ts"
import { CountRow } from "../../infra/columns.ts"
import { jsonRowsParam } from "../../infra/Store.ts"
import { forEachFlaggedPage } from "../flaggedRows.ts"

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

const tableFor = (feed: string) => `_stage_prices_${feed.replace(/[^a-z0-9_]/g, "_")}`

const FLAGGED_COLUMNS = ["product_id", "observed_at", "price", "currency"]
type FlaggedRow = { readonly k: number } & Readonly<Record<string, string | null>>

const loadPriceHistory = (
  { db, staging, publisher }: LoaderStores,
  input: LoadInput
): Effect.Effect<LoadResult, PipelineError> => {
  const { feed, runId } = input
  const fail = (stage: "parse" | "load", message: string) => new PipelineError({ feed: feed.name, stage, message })
  const table = tableFor(feed.name)
  const defaultCurrency = feedCurrency(feed)
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
    // In file order (DuckDB keeps insertion order): row k is on line k + 2.
    yield* staging
      .run(
        `CREATE OR REPLACE TABLE ${table} AS
         SELECT *, ${priceRowPrecheck(defaultCurrency)} AS ok FROM (
           SELECT ${idColumn} AS product_id, ${REQUIRED.join(", ")}, ${columns.includes("currency") ? "currency" : "NULL::VARCHAR AS currency"}
           FROM read_csv($file, delim=',', quote='"', escape='"', header=true, auto_detect=false, columns=${spec},
                         compression=${input.gzip ? "'gzip'" : "'none'"}))`,
        { file: input.file }
      )
      .pipe(Effect.mapError((error) => fail("parse", error.message)))
    const [{ n: rowsRead }] = yield* staging
      .queryAs(CountRow, `SELECT count(*)::INTEGER AS n FROM ${table}`)
      .pipe(Effect.mapError((error) => fail("load", error.message)))
    input.progress(rowsRead)
    const judge = priceRowJudge(defaultCurrency)
    const rejections: Array<Rejection> = []
    const rewritten: Array<Observation & { k: number }> = []
    yield* staging
      .transaction((tx) =>
        forEachFlaggedPage<FlaggedRow>(tx, table, FLAGGED_COLUMNS, "NOT ok", (rows) => {
          for (const { k, ...row } of rows) {
            const judged = judge(row)
            if (typeof judged === "string") rejections.push({ line: k + 2, reason: judged, raw: JSON.stringify(row) })
            else rewritten.push({ k, ...judged })
          }
        })
      )
      .pipe(Effect.mapError((error) => fail("load", error.message)))
    yield* recordRejections(db, runId, feed.name, rejections)
    yield* checkThreshold(feed, rowsRead, rejections.length)
    const priorRuns = yield* db
      .queryAs(PriorRun, "SELECT id FROM pipeline_runs WHERE feed = $1 AND id <> $2", [feed.name, runId])
      .pipe(Effect.mapError((error) => fail("load", error.message)))
    const rowsLoaded = rowsRead - rejections.length
    yield* publisher.replace(
      feed.name,
      (tx) =>
        Effect.gen(function* () {
          if (rewritten.length > 0) {
            yield* tx.run(
              `UPDATE ${table} SET observed_at = r.observed_at, price = r.price, currency = r.currency, ok = true
               FROM ${tx.jsonRows("$1", { k: "BIGINT", observed_at: "VARCHAR", price: "VARCHAR", currency: "VARCHAR" })} r
               WHERE ${table}.rowid = r.k`,
              [jsonRowsParam(rewritten)]
            )
          }
          if (priorRuns.length > 0) {
            yield* tx.run(`DELETE FROM price_history WHERE run_id IN ${tx.jsonList("$1")}`, [
              JSON.stringify(priorRuns.map((run) => run.id))
            ])
          }
          const read = stagedObservation(defaultCurrency)
          yield* tx.run(
            `INSERT INTO price_history
             SELECT product_id, ${read.observedAt}, ${read.amount}, ${read.currency}, $1 FROM ${table} WHERE ok`,
            [runId]
          )
        }),
      () => publishedBy(feed.name, runId)
    )
    return { rowsRead, rowsLoaded, rowsRejected: rejections.length }
  }).pipe(Effect.ensuring(staging.run(`DROP TABLE IF EXISTS ${table}`).pipe(Effect.ignore)))
}

export const PriceHistoryLoader = Effect.gen(function* () {
  const stores = yield* loaderStores
  return { kind: "price_history", load: (input) => loadPriceHistory(stores, input) } satisfies FeedLoader
})
