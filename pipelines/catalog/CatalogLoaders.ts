import { Clock, Effect } from "effect"
import type { DatabaseError, Tx } from "../../infra/Database.ts"
import { forEachSlice } from "../../infra/yieldToEventLoop.ts"
import { byFeed, type PublishStep } from "../publish/CatalogPublisher.ts"
import { type LoaderStores, loaderStores } from "../publish/LoaderStores.ts"
import { PipelineError } from "../errors.ts"
import type { FeedLoader, LoadInput, LoadResult } from "../FeedLoaders.ts"
import { checkThreshold, type Rejection, recordRejections } from "../Rejections.ts"
import { readJsonl } from "./readJsonl.ts"
import { numberNewPrograms } from "./programNumbers.ts"
import { NetworkRecord, ProgramRecord } from "./records.ts"

// Networks and programmes: JSONL catalog feeds, validated line by line with
// Schema, then swapped in one staging transaction like every other feed and
// published (CatalogPublisher). Valid records travel to DuckDB as JSON text
// through the Appender into a temp table and are unpacked by SQL, which keeps
// list and JSON columns out of the Appender's type juggling.

const docsTable = "_stage_catalog_docs"

/** Records appended between two turns of the event loop (30,000 programmes at once held it ~125 ms). */
const DOCS_PER_TURN = 2_000

const withDocs = <A>(tx: Tx, docs: ReadonlyArray<unknown>, use: Effect.Effect<A, DatabaseError>) =>
  Effect.gen(function* () {
    yield* tx.run(`CREATE OR REPLACE TEMP TABLE ${docsTable} (doc JSON)`)
    yield* forEachSlice(docs, DOCS_PER_TURN, (slice) =>
      tx.append(docsTable, (appender) => {
        for (const doc of slice) {
          appender.appendVarchar(JSON.stringify(doc))
          appender.endRow()
        }
      })
    )
    const result = yield* use
    yield* tx.run(`DROP TABLE ${docsTable}`)
    return result
  })

const str = (path: string) => `json_extract_string(doc, '$.${path}')`
const list = (path: string) => `CAST(json_extract(doc, '$.${path}') AS VARCHAR[])`

const replaceNetworks = (tx: Tx, feed: string, now: string, docs: ReadonlyArray<NetworkRecord>) =>
  withDocs(
    tx,
    docs,
    Effect.gen(function* () {
      yield* tx.run("DELETE FROM networks WHERE feed = $1", [feed])
      yield* tx.run(
        `INSERT INTO networks SELECT ${str("id")}, ${str("name")}, ${str("status")}, ${str("website")}, ${list("click_hosts")},
          ${str("deep_link_template")}, ${str("subid_param")}, ${list("unwrap_params")}, ${str("confidence")},
          ${str("successor_id")}, ${list("regions")}, json_extract(doc, '$.account_params'), $1, $2::TIMESTAMPTZ
         FROM ${docsTable}`,
        [feed, now]
      )
    })
  )

const replacePrograms = (tx: Tx, feed: string, now: string, docs: ReadonlyArray<ProgramRecord>) =>
  withDocs(
    tx,
    docs.map((doc) => ({ ...doc, id: `${doc.network_id}:${doc.merchant_id}` })),
    Effect.gen(function* () {
      yield* tx.run("DELETE FROM program_domains WHERE feed = $1", [feed])
      yield* tx.run("DELETE FROM programs WHERE feed = $1", [feed])
      yield* tx.run(
        `INSERT INTO programs SELECT ${str("id")}, ${str("network_id")}, ${str("merchant_id")}, ${str("name")}, ${list("domains")},
          ${str("country")}, ${str("category")}, ${str("commission_type")}, CAST(${str("commission_rate")} AS DECIMAL(18,4)),
          ${str("commission_currency")}, CAST(${str("cookie_days")} AS INTEGER), ${str("status")},
          CAST(${str("deep_link_allowed")} AS BOOLEAN), CAST(${str("epc")} AS DECIMAL(18,4)), json_extract(doc, '$.link_params'),
          $1, $2::TIMESTAMPTZ
         FROM ${docsTable}`,
        [feed, now]
      )
      yield* tx.run(
        `INSERT INTO program_domains SELECT DISTINCT unnest(domains), id, feed FROM programs WHERE feed = $1`,
        [feed]
      )
      yield* numberNewPrograms(tx, feed)
    })
  )

/**
 * The system of record numbers the programmes it receives (with DuckDB alone
 * that is staging itself, numbered in replacePrograms): one authority for
 * numbers, so a programme keeps its number whatever staging holds.
 */
const numberedInSystemOfRecord = (feed: string): ReadonlyArray<PublishStep> =>
  byFeed(feed, ["program_domains", "programs"]).map((step) =>
    step.table === "programs" ? { ...step, afterCopy: (tx: Tx) => numberNewPrograms(tx, feed) } : step
  )

/** Duplicate keys: the first record wins, later ones are rejected with the line of the first. */
const dedupe = <T>(records: ReadonlyArray<{ line: number; value: T }>, key: (value: T) => string) => {
  const first = new Map<string, number>()
  const kept: Array<T> = []
  const rejections: Array<Rejection> = []
  for (const record of records) {
    const id = key(record.value)
    const seen = first.get(id)
    if (seen === undefined) {
      first.set(id, record.line)
      kept.push(record.value)
    } else {
      rejections.push({
        line: record.line,
        reason: `duplicate id ${id} (first on line ${seen})`,
        raw: JSON.stringify(record.value)
      })
    }
  }
  return { kept, rejections }
}

const loadCatalog = <T>(
  { db, publisher }: LoaderStores,
  input: LoadInput,
  parsed: { valid: Array<{ line: number; value: T }>; rejections: Array<Rejection>; rowsRead: number },
  key: (value: T) => string,
  extraCheck: (value: T) => string | undefined,
  replace: (tx: Tx, feed: string, now: string, docs: ReadonlyArray<T>) => Effect.Effect<void, DatabaseError>,
  steps: (feed: string) => ReadonlyArray<PublishStep>
): Effect.Effect<LoadResult, PipelineError> =>
  Effect.gen(function* () {
    const { feed, runId } = input
    const rejections = [...parsed.rejections]
    const checked = parsed.valid.filter((record) => {
      const reason = extraCheck(record.value)
      if (reason !== undefined) rejections.push({ line: record.line, reason, raw: JSON.stringify(record.value) })
      return reason === undefined
    })
    const { kept, rejections: duplicates } = dedupe(checked, key)
    rejections.push(...duplicates)
    rejections.sort((a, b) => a.line - b.line)
    yield* recordRejections(db, runId, feed.name, rejections)
    yield* checkThreshold(feed, parsed.rowsRead, rejections.length)
    const loadedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
    yield* publisher.replace(
      feed.name,
      (tx) => replace(tx, feed.name, loadedAt, kept),
      () => steps(feed.name)
    )
    return { rowsRead: parsed.rowsRead, rowsLoaded: kept.length, rowsRejected: rejections.length }
  })

export const NetworkLoader = Effect.gen(function* () {
  const using = yield* loaderStores
  return {
    kind: "networks",
    load: (input) =>
      readJsonl(input, NetworkRecord).pipe(
        Effect.flatMap((parsed) =>
          loadCatalog(
            using,
            input,
            parsed,
            (n) => n.id,
            () => undefined,
            replaceNetworks,
            (feed) => byFeed(feed, ["networks"])
          )
        )
      )
  } satisfies FeedLoader
})

export const ProgramLoader = Effect.gen(function* () {
  const using = yield* loaderStores
  return {
    kind: "programs",
    load: (input) =>
      Effect.gen(function* () {
        const parsed = yield* readJsonl(input, ProgramRecord)
        // A programme must belong to a network we know, once any network is loaded.
        const networks = yield* using.staging
          .query<{ id: string }>("SELECT id FROM networks")
          .pipe(
            Effect.mapError(
              (error) => new PipelineError({ feed: input.feed.name, stage: "load", message: error.message })
            )
          )
        const known = new Set(networks.map((n) => n.id))
        const unknownNetwork = (program: ProgramRecord) =>
          known.size > 0 && !known.has(program.network_id)
            ? `network_id: unknown network ${program.network_id}`
            : undefined
        return yield* loadCatalog(
          using,
          input,
          parsed,
          (p) => `${p.network_id}:${p.merchant_id}`,
          unknownNetwork,
          replacePrograms,
          numberedInSystemOfRecord
        )
      })
  } satisfies FeedLoader
})
