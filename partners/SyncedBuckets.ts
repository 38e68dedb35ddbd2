import { Duration, Effect, Schedule, type Scope } from "effect"
import type { Database } from "../infra/Database.ts"
import type { Counter, MetricsShape } from "../infra/Metrics.ts"
import { RateLimiter, type RateLimit, type Verdict } from "./RateLimiter.ts"
import { spendShared } from "./SharedBuckets.ts"

// A shared limit (PostgreSQL, several replicas) spent from memory. Each
// replica answers a request from its own view of the client's bucket, with no
// statement, and counts what it granted; every sync (RateLimits.ts, each
// RATE_LIMIT_SYNC_MS) charges those counts to the shared buckets in one
// statement (SharedBuckets.ts `spendShared`) and takes their levels, other
// replicas' spending included, as its new view.
//
// What that trades: a replica learns a bucket's shared level only when it
// syncs a grant of its own from it, so until then it does not see what the
// others granted: a client spread over N replicas can get up to a view's worth
// (at most the burst) from each before they have all seen it. The shared
// bucket records all of it, below zero if need be, and every replica refuses
// until that debt is refilled: over time the client gets the limit, not N
// times it. In exchange a limited request costs a Map operation instead of a
// round trip to PostgreSQL and a row lock.
export class SyncedBuckets {
  readonly limit: RateLimit
  readonly #view: RateLimiter
  #granted = new Map<string, number>()

  constructor(limit: RateLimit, now: () => number) {
    this.limit = limit
    this.#view = new RateLimiter(limit, now)
  }

  take(key: string): Verdict {
    const verdict = this.#view.take(key)
    if (verdict.allowed) this.#granted.set(key, (this.#granted.get(key) ?? 0) + 1)
    return verdict
  }

  /** What was granted since the last call, for a sync to charge; counting starts again. */
  handOver(): ReadonlyMap<string, number> {
    const granted = this.#granted
    this.#granted = new Map()
    return granted
  }

  /**
   * The shared level a sync read back, as this replica's view: less what was
   * granted here while the sync was under way (that is in the next one).
   */
  settle(key: string, sharedTokens: number) {
    this.#view.settle(key, sharedTokens - (this.#granted.get(key) ?? 0))
  }
}

/**
 * Syncs `families` with the shared buckets every `everyMs` until the scope
 * closes, and once more then (a replica that stops hands over its last
 * grants). A failed sync leaves the views as they are (each replica limits
 * on its own until the database is back) and forgives what it carried,
 * counted in `fallbacks`; its first failure and the recovery are logged.
 */
export const runGrantSyncs = (
  db: Pick<Database["Service"], "queryAs" | "jsonRows">,
  families: ReadonlyArray<SyncedBuckets>,
  everyMs: number,
  metrics: MetricsShape,
  fallbacks: Counter
): Effect.Effect<void, never, Scope.Scope> =>
  Effect.gen(function* () {
    const syncs = metrics.counter(
      "api_rate_limit_syncs_total",
      "Syncs of this replica's per-key and per-IP grants with the shared buckets (empty ones included)"
    )
    let failing = false
    const syncFamily = (family: SyncedBuckets) => {
      const granted = family.handOver()
      if (granted.size === 0) return Effect.void
      return spendShared(db, family.limit, granted).pipe(
        Effect.flatMap((levels) => {
          for (const { key, tokens } of levels) family.settle(key, tokens)
          if (!failing) return Effect.void
          failing = false
          return Effect.logInfo("rate-limit sync with the shared buckets works again")
        }),
        Effect.catch((error) => {
          let forgiven = 0
          for (const count of granted.values()) forgiven += count
          fallbacks.inc(forgiven)
          if (failing) return Effect.void
          failing = true
          return Effect.logWarning("rate-limit sync with the shared buckets failed; limiting per replica", error)
        })
      )
    }
    const syncOnce = Effect.forEach(families, syncFamily, { discard: true }).pipe(
      Effect.ensuring(Effect.sync(() => syncs.inc()))
    )
    // Added before the loop starts, so it runs after the loop is interrupted.
    yield* Effect.addFinalizer(() => syncOnce)
    yield* Effect.forkScoped(Effect.repeat(syncOnce, Schedule.spaced(Duration.millis(everyMs))))
  })
