import { Clock, Context, Effect, Layer, Schedule } from "effect"
import { HttpServerResponse } from "effect/http"
import { AppConfig } from "../infra/AppConfig.ts"
import { Database } from "../infra/Database.ts"
import { Metrics } from "../infra/Metrics.ts"
import { RateLimiter, type Verdict } from "./RateLimiter.ts"
import { pruneSharedBuckets, takeShared } from "./SharedBuckets.ts"
import { runGrantSyncs, SyncedBuckets } from "./SyncedBuckets.ts"

// The link service's three token-bucket families (configured in AppConfig):
// per API key, per client IP for anonymous calls, and per IP for registration.
// One process (DuckDB): buckets in this process's memory, no query. Several
// replicas (PostgreSQL): a limit holds for all of them together, the buckets
// live in the database (SharedBuckets.ts), and
// - per key and per IP, each replica answers from its own view of the bucket
//   and charges what it granted every RATE_LIMIT_SYNC_MS in one statement
//   (SyncedBuckets.ts: between two syncs a client spread over replicas can
//   get more, repaid as a debt before the next grant);
// - registrations (a few a minute, and the limit on minting API keys) take
//   their token with one statement each, exact across replicas.
// If the database cannot be reached each replica limits on its own until it
// is back. Which of the two layers runs is chosen once, where the service is
// composed (service.ts).

export type RateLimitScope = "key" | "ip" | "register"
export type Denied = Extract<Verdict, { allowed: false }>

const PRUNE_EVERY = "1 minute"

/** The JSON error body of every 429, wherever it is written (the router, or the HTTP edge before it). */
export const rateLimitedBody = (scope: string, verdict: Denied) => ({
  error: {
    code: "rate_limited",
    message: `too many requests; retry in ${verdict.retryAfterSeconds} s`,
    details: { scope, retry_after_seconds: verdict.retryAfterSeconds }
  }
})

const MAX_DENIALS = 100_000

/**
 * Keys refused until a token is back in their bucket. Here: shared
 * registration buckets this replica was refused from, so that a caller who
 * keeps knocking on an empty bucket is answered from memory, without a
 * statement per request (a flood costs the store nothing once its allowance
 * is spent).
 */
export class Denials {
  readonly #until = new Map<string, number>()
  get(key: string, now: number): Denied | undefined {
    const until = this.#until.get(key)
    if (until === undefined) return undefined
    if (until <= now) {
      this.#until.delete(key)
      return undefined
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)) }
  }
  remember(key: string, verdict: Verdict, now: number) {
    if (verdict.allowed) return
    if (this.#until.size >= MAX_DENIALS) {
      for (const [known, until] of this.#until) if (until <= now) this.#until.delete(known)
      if (this.#until.size >= MAX_DENIALS) this.#until.clear()
    }
    this.#until.set(key, now + verdict.retryAfterSeconds * 1000)
  }
}

export class RateLimits extends Context.Service<
  RateLimits,
  {
    /** Takes one token from `bucket` of `scope`: shared by all replicas on PostgreSQL. */
    take(scope: RateLimitScope, bucket: string): Effect.Effect<Verdict>
    /**
     * `take` for the per-key and per-IP buckets, which are answered from this
     * process's memory on replicas too (synced: SyncedBuckets.ts), for the
     * edge that checks them before a request reaches the router.
     */
    takeNow(scope: "key" | "ip", bucket: string): Verdict
    /** The 429 answer, counted in metrics. */
    tooMany(scope: RateLimitScope, verdict: Denied): HttpServerResponse.HttpServerResponse
    /** Counts a 429 written outside the router (the HTTP edge writes its own). */
    countRefusal(scope: RateLimitScope): void
  }
>()("app/partners/RateLimits") {
  /** `shared`: the store whose buckets all replicas use; undefined: buckets in this process's memory. */
  static readonly make = (shared: Database["Service"] | undefined) =>
    Effect.gen(function* () {
      const config = yield* AppConfig
      const metrics = yield* Metrics
      // The layer's Clock (TestClock in tests); read synchronously, as take() runs per request.
      const clock = yield* Clock.Clock
      const now = () => clock.currentTimeMillisUnsafe()
      const refusals = {
        key: metrics.counter("api_rate_limited_total", "Requests answered 429", { scope: "key" }),
        ip: metrics.counter("api_rate_limited_total", "Requests answered 429", { scope: "ip" }),
        register: metrics.counter("api_rate_limited_total", "Requests answered 429", { scope: "register" })
      }
      const answers = {
        tooMany: (scope: RateLimitScope, verdict: Denied) => {
          refusals[scope].inc()
          return HttpServerResponse.jsonUnsafe(rateLimitedBody(scope, verdict), {
            status: 429,
            headers: { "retry-after": String(verdict.retryAfterSeconds) }
          })
        },
        countRefusal: (scope: RateLimitScope) => refusals[scope].inc()
      }
      if (shared === undefined) {
        const local = {
          key: new RateLimiter(config.rateLimitPerKey, now),
          ip: new RateLimiter(config.rateLimitPerIp, now),
          register: new RateLimiter(config.rateLimitRegister, now)
        }
        return RateLimits.of({
          ...answers,
          take: (scope, bucket) => Effect.sync(() => local[scope].take(bucket)),
          takeNow: (scope, bucket) => local[scope].take(bucket)
        })
      }

      const db = shared
      const fallbacks = metrics.counter(
        "api_rate_limit_fallbacks_total",
        "Rate-limit grants and registration checks this replica kept to itself because the database failed (limited per replica meanwhile)"
      )
      const registerDenials = new Denials()
      const registerFallback = new RateLimiter(config.rateLimitRegister, now)
      const takeRegister = (bucket: string) =>
        Effect.suspend(() => {
          const known = registerDenials.get(bucket, now())
          if (known !== undefined) return Effect.succeed<Verdict>(known)
          return takeShared(db, config.rateLimitRegister, bucket).pipe(
            Effect.tap((verdict) => Effect.sync(() => registerDenials.remember(bucket, verdict, now()))),
            Effect.catch(() =>
              Effect.sync(() => {
                fallbacks.inc()
                return registerFallback.take(bucket)
              })
            )
          )
        })
      const synced = {
        key: new SyncedBuckets(config.rateLimitPerKey, now),
        ip: new SyncedBuckets(config.rateLimitPerIp, now)
      }
      yield* runGrantSyncs(db, [synced.key, synced.ip], config.rateLimitSyncMs, metrics, fallbacks)
      yield* Effect.forkScoped(
        Effect.repeat(
          pruneSharedBuckets(db).pipe(
            Effect.catch((error) => Effect.logWarning("pruning shared rate-limit buckets failed", error))
          ),
          Schedule.spaced(PRUNE_EVERY)
        )
      )
      return RateLimits.of({
        ...answers,
        take: (scope, bucket) =>
          scope === "register" ? takeRegister(bucket) : Effect.sync(() => synced[scope].take(bucket)),
        takeNow: (scope, bucket) => synced[scope].take(bucket)
      })
    })

  /** One process owns the store: the buckets live in this process's memory, no query per request. */
  static readonly layerSingleProcess = Layer.effect(RateLimits, RateLimits.make(undefined))

  /** Replicas share the store: every replica counts against one bucket there (SharedBuckets.ts). */
  static readonly layerReplicas = Layer.effect(
    RateLimits,
    Effect.gen(function* () {
      return yield* RateLimits.make(yield* Database)
    })
  )
}
