import { Context, Effect, Layer } from "effect"
import { join } from "node:path"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Database, type DatabaseError, type DuckDbTx, type Params, type Tx } from "../../infra/Database.ts"
import { Staging } from "../../infra/Staging.ts"
import { Metrics } from "../../infra/Metrics.ts"
import { PipelineError } from "../errors.ts"
import { PIPELINE_LOCK_KEY } from "../WorkerLock.ts"
import { catalogChanged } from "./catalogChanged.ts"
import { copyStagedRows } from "./copyStagedRows.ts"
import { fenceBreach, lostWorkerLock, RunFence } from "./PublishFence.ts"

// Loaders stage and check a feed in DuckDB (Staging) and replace its rows
// there in one transaction. With PostgreSQL as the system of record, the same
// feed's rows are then published to it: ONE PostgreSQL transaction per feed
// deletes the rows the feed replaces and COPYs the staged ones in
// (copyStagedRows.ts). It runs INSIDE the staging transaction, before that
// one commits, so a failed publish rolls both back and neither store changes:
// PostgreSQL keeps the old rows and the next run diffs against the same old
// staging rows (price history stays complete). Should the staging COMMIT
// itself fail after PostgreSQL's, the next worker start finds the row counts
// apart and copies PostgreSQL's catalog into staging (followSystemOfRecord.ts).
// The publish is fenced by the worker's pipeline lock: it commits only while
// the lock's session the run started under still holds it (PublishFence.ts).
// With DuckDB alone, Staging IS the Database and nothing is copied (one
// process owns the file: there is no lock to fence by).

/** One table's share of a feed's publish; conditions use `$1..$n` over their own `params`. */
export interface PublishStep {
  readonly table: string
  /** The rows of the system of record this feed's rows replace (none: the step only adds rows). */
  readonly remove?: { readonly where: string; readonly params: Params }
  /** The staged rows to copy (read in the staging transaction, so its uncommitted rows included). */
  readonly copy: { readonly where: string; readonly params: Params }
  /**
   * Run in the system of record's transaction after the copy: what the system
   * of record must decide itself (programme numbers: it is their authority).
   */
  readonly afterCopy?: (tx: Tx) => Effect.Effect<void, DatabaseError>
}

export interface CatalogPublisherShape {
  /**
   * Runs `replace` in one staging transaction, then publishes `steps(result)`
   * in one transaction of the system of record (with the catalog version
   * bump) before the staging transaction commits. Fails with stage "load"
   * (staging) or "publish" (system of record); either way both keep their rows.
   */
  replace<A>(
    feed: string,
    replace: (staged: DuckDbTx) => Effect.Effect<A, DatabaseError>,
    steps: (result: A) => ReadonlyArray<PublishStep>
  ): Effect.Effect<A, PipelineError>
}

/** The steps of a feed whose rows carry its name in a `feed` column. */
export const byFeed = (feed: string, tables: ReadonlyArray<string>): ReadonlyArray<PublishStep> =>
  tables.map((table) => ({
    table,
    remove: { where: "feed = $1", params: [feed] },
    copy: { where: "feed = $1", params: [feed] }
  }))

export class CatalogPublisher extends Context.Service<CatalogPublisher, CatalogPublisherShape>()(
  "app/pipelines/publish/CatalogPublisher"
) {
  static readonly layer = Layer.effect(
    CatalogPublisher,
    Effect.gen(function* () {
      const db = yield* Database
      const staging = yield* Staging
      // Staging.layer hands out the Database itself when the store is DuckDB.
      const copies = db !== staging
      // The CSV files a publish passes between the stores, removed after each copy.
      const directory = join((yield* AppConfig).dataDir, "tmp", "publish")
      const fenced = (yield* Metrics).counter(
        "pipeline_publish_fenced_total",
        "Feed publishes rolled back because the worker lost its pipeline lock during the run"
      )

      const publish = (feed: string, staged: DuckDbTx, steps: ReadonlyArray<PublishStep>) =>
        copies
          ? Effect.flatMap(RunFence, (fence) =>
              db.transaction((tx) =>
                Effect.gen(function* () {
                  for (const step of steps) {
                    if (step.remove !== undefined) {
                      yield* tx.run(`DELETE FROM ${step.table} WHERE ${step.remove.where}`, step.remove.params)
                    }
                    yield* copyStagedRows(staged, tx, step.table, step.copy.where, step.copy.params, directory)
                    if (step.afterCopy !== undefined) yield* step.afterCopy(tx)
                  }
                  yield* catalogChanged(tx)
                  // After the bump, which holds catalog_version's row lock to the commit (why: PublishFence.ts).
                  const breach = yield* fenceBreach(tx, fence, PIPELINE_LOCK_KEY)
                  if (breach !== undefined) {
                    fenced.inc()
                    yield* Effect.logError(
                      "publish rolled back: this worker lost its pipeline lock during the run"
                    ).pipe(Effect.annotateLogs({ event: "publish_fenced", feed, reason: breach }))
                    return yield* lostWorkerLock(breach)
                  }
                })
              )
            )
          : catalogChanged(staged)

      return CatalogPublisher.of({
        replace: (feed, replace, steps) => {
          const failAt = (stage: "load" | "publish") => (error: DatabaseError) =>
            new PipelineError({ feed, stage, message: error.message })
          return staging
            .transaction((tx) =>
              replace(tx).pipe(
                Effect.mapError(failAt("load")),
                Effect.tap((result) => publish(feed, tx, steps(result)).pipe(Effect.mapError(failAt("publish"))))
              )
            )
            .pipe(Effect.mapError((error) => (error instanceof PipelineError ? error : failAt("load")(error))))
        }
      })
    })
  )
}
