import { Clock, Context, Effect, Layer, Schedule } from "effect"
import { HttpServerResponse } from "effect/http"
import { AppConfig } from "../infra/AppConfig.ts"
import { Database } from "../infra/Database.ts"
import { Metrics } from "../infra/Metrics.ts"
import { RateLimiter, type Verdict } from "./RateLimiter.ts"
import { pruneSharedBuckets, takeShared } from "./SharedBuckets.ts"

// The link service's three token-bucket families (configured in AppConfig):
// per API key, per client IP for anonymous calls, and per IP for registration.
// With several replicas (PostgreSQL) a limit holds for all of them together:
// the buckets live in the database (SharedBuckets.ts), one statement per
// request; if that statement fails the replica falls back to its own
// in-memory bucket (then each replica enforces the limit on its own).
// DuckDB (one process): the in-memory buckets, no query.

export type RateLimitScope = "key" | "ip" | "register"

const PRUNE_EVERY = "1 minute"

export class RateLimits extends Context.Service<
  RateLimits,
  {
    /** Takes one token from `bucket` of `scope`: shared by all replicas on PostgreSQL. */
    take(scope: RateLimitScope, bucket: string): Effect.Effect<Verdict>
    /** The 429 answer, counted in metrics. */
    tooMany(scope: RateLimitScope, verdict: Extract<Verdict, { allowed: false }>): HttpServerResponse.HttpServerResponse
  }
>()("app/partners/RateLimits") {
  /** `shared`: the store whose buckets all replicas use, when it is PostgreSQL. */
  static readonly make = (shared: Database["Service"] | undefined) =>
    Effect.gen(function* () {
      const config = yield* AppConfig
      const metrics = yield* Metrics
      // The layer's Clock (TestClock in tests); read synchronously, as take() runs per request.
      const clock = yield* Clock.Clock
      const now = () => clock.currentTimeMillisUnsafe()
      const counters = {
        key: metrics.counter("api_rate_limited_total", "Requests answered 429", { scope: "key" }),
        ip: metrics.counter("api_rate_limited_total", "Requests answered 429", { scope: "ip" }),
        register: metrics.counter("api_rate_limited_total", "Requests answered 429", { scope: "register" })
      }
      const local = {
        key: new RateLimiter(config.rateLimitPerKey, now),
        ip: new RateLimiter(config.rateLimitPerIp, now),
        register: new RateLimiter(config.rateLimitRegister, now)
      }
      const limits = { key: config.rateLimitPerKey, ip: config.rateLimitPerIp, register: config.rateLimitRegister }
      const fallbacks = metrics.counter(
        "api_rate_limit_fallbacks_total",
        "Rate-limit checks answered by this replica's memory because the shared store failed"
      )
      const db = shared?.dialect === "postgres" ? shared : undefined
      const take =
        db !== undefined
          ? (scope: RateLimitScope, bucket: string) =>
              takeShared(db, limits[scope], bucket).pipe(
                Effect.catch(() =>
                  Effect.sync(() => {
                    fallbacks.inc()
                    return local[scope].take(bucket)
                  })
                )
              )
          : (scope: RateLimitScope, bucket: string) => Effect.sync(() => local[scope].take(bucket))
      if (db !== undefined) {
        yield* Effect.forkScoped(
          Effect.repeat(
            pruneSharedBuckets(db).pipe(
              Effect.catch((error) => Effect.logWarning("pruning shared rate-limit buckets failed", error))
            ),
            Schedule.spaced(PRUNE_EVERY)
          )
        )
      }
      return RateLimits.of({
        take,
        tooMany: (scope, verdict) => {
          counters[scope].inc()
          return HttpServerResponse.jsonUnsafe(
            {
              error: {
                code: "rate_limited",
                message: `too many requests; retry in ${verdict.retryAfterSeconds} s`,
                details: { scope, retry_after_seconds: verdict.retryAfterSeconds }
              }
            },
            { status: 429, headers: { "retry-after": String(verdict.retryAfterSeconds) } }
          )
        }
      })
    })

  /** Buckets in the store when it is PostgreSQL (shared by replicas), else in this process's memory. */
  static readonly layer = Layer.effect(
    RateLimits,
    Effect.gen(function* () {
      return yield* RateLimits.make(yield* Database)
    })
  )

  /** Buckets in this process's memory whatever the store: what DuckDB uses, for tests without a store. */
  static readonly layerLocal = Layer.effect(RateLimits, RateLimits.make(undefined))
}
