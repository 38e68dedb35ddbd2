import { Clock, Context, Effect, Layer } from "effect"
import { HttpServerResponse } from "effect/http"
import { AppConfig } from "../infra/AppConfig.ts"
import { Metrics } from "../infra/Metrics.ts"
import { RateLimiter, type Verdict } from "./RateLimiter.ts"

// The link service's three token-bucket families (configured in AppConfig):
// per API key, per client IP for anonymous calls, and per IP for registration.
export class RateLimits extends Context.Service<
  RateLimits,
  {
    readonly perKey: RateLimiter
    readonly perIp: RateLimiter
    readonly register: RateLimiter
    /** The 429 answer, counted in metrics. */
    tooMany(
      scope: "key" | "ip" | "register",
      verdict: Extract<Verdict, { allowed: false }>
    ): HttpServerResponse.HttpServerResponse
  }
>()("app/partners/RateLimits") {
  static readonly layer = Layer.effect(
    RateLimits,
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
      return RateLimits.of({
        perKey: new RateLimiter(config.rateLimitPerKey, now),
        perIp: new RateLimiter(config.rateLimitPerIp, now),
        register: new RateLimiter(config.rateLimitRegister, now),
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
  )
}
