import { Clock, Effect, Layer, Redacted } from "effect"
import { createHash } from "node:crypto"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import { AppConfig } from "../../../infra/AppConfig.ts"
import { type ServiceUnavailable, type Unauthorized, unauthorized, unavailable } from "../../errors.ts"
import { API_KEY_PATTERN, type Partner, Partners } from "../../../partners/Partners.ts"
import { clientIp } from "./clientIp.ts"
import {
  CurrentPartner,
  IpRateLimit,
  MaybePartner,
  OptionalPartnerAuth,
  PartnerAuth,
  RegistrationRateLimit
} from "./Api.ts"
import { Denials, RateLimits } from "../../../partners/RateLimits.ts"

// Partner authentication for /api/v1, `Authorization: Bearer <api key>`.
// Required endpoints: a missing, malformed or unknown key is a 401.
// Optional endpoints: no Authorization header is anonymous, but a header that
// is present and wrong is still a 401, never a silent downgrade to anonymous.
// Both also apply the rate limits: per key when authenticated, per IP when not.
// The middlewares themselves are declared in Api.ts (the contract); this file
// implements them.

const lookupFailed = unavailable("auth_unavailable", "the partner store is not reachable; retry shortly")

type Resolved =
  | { readonly _tag: "Caller"; readonly partner: Partner | undefined }
  | { readonly _tag: "Limited"; readonly response: HttpServerResponse.HttpServerResponse }

const caller = (partner: Partner | undefined): Resolved => ({ _tag: "Caller", partner })
const limited = (response: HttpServerResponse.HttpServerResponse): Resolved => ({ _tag: "Limited", response })

/** A key's SHA-256, so that the set below holds no usable key. */
const keyFingerprint = (key: string) => createHash("sha256").update(key).digest("base64url")

const MAX_WORKING_KEYS = 100_000

/** Fingerprints of keys that authenticated in this process (bounded: forgotten all at once when full). */
class WorkingKeys {
  readonly #seen = new Set<string>()
  has(fingerprint: string) {
    return this.#seen.has(fingerprint)
  }
  add(fingerprint: string) {
    if (this.#seen.size >= MAX_WORKING_KEYS) this.#seen.clear()
    this.#seen.add(fingerprint)
  }
}

const makeResolver = Effect.gen(function* () {
  const partners = yield* Partners
  const limits = yield* RateLimits
  const config = yield* AppConfig
  const workingKeys = new WorkingKeys()
  const guessers = new Denials()
  // the layer's Clock (TestClock in tests), as the rate limits read it
  const clock = yield* Clock.Clock
  /** undefined = anonymous; fails 401 on a bad key; returns a 429 response when limited. */
  return (
    credential: Redacted.Redacted<string>,
    required: boolean
  ): Effect.Effect<Resolved, Unauthorized | ServiceUnavailable, HttpServerRequest.HttpServerRequest> =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const header = request.headers["authorization"]
      if (header === undefined && !required) {
        const verdict = yield* limits.take("ip", `ip:${clientIp(request, config.trustProxy)}`)
        return verdict.allowed ? caller(undefined) : limited(limits.tooMany("ip", verdict))
      }
      if (header === undefined) return yield* unauthorized("an API key is required: Authorization: Bearer <api key>")
      const key = Redacted.value(credential)
      if (!API_KEY_PATTERN.test(key)) {
        return yield* unauthorized(
          "malformed Authorization header: expected 'Bearer ak_...' with the key from registration"
        )
      }
      // A wrong key costs a store lookup: each one spends the caller's IP
      // allowance. Once a wrong key finds that allowance spent, the address
      // is a key guesser until a token is back: its keys are answered 429
      // without a lookup, except keys that worked in this process (a
      // partner behind the same address is not refused with it).
      const ip = clientIp(request, config.trustProxy)
      const fingerprint = keyFingerprint(key)
      const guessing = guessers.get(ip, clock.currentTimeMillisUnsafe())
      if (guessing !== undefined && !workingKeys.has(fingerprint)) return limited(limits.tooMany("ip", guessing))
      const partner = yield* partners.authenticate(key).pipe(Effect.mapError(() => lookupFailed))
      if (partner === undefined) {
        const verdict = yield* limits.take("ip", `ip:${ip}`)
        if (!verdict.allowed) {
          guessers.remember(ip, verdict, clock.currentTimeMillisUnsafe())
          return limited(limits.tooMany("ip", verdict))
        }
        return yield* unauthorized("unknown API key")
      }
      workingKeys.add(fingerprint)
      const verdict = yield* limits.take("key", `key:${partner.id}`)
      return verdict.allowed ? caller(partner) : limited(limits.tooMany("key", verdict))
    })
})

export const PartnerAuthLayer = Layer.effect(
  PartnerAuth,
  Effect.gen(function* () {
    const resolve = yield* makeResolver
    return PartnerAuth.of({
      bearer: (httpEffect, { credential }) =>
        Effect.gen(function* () {
          const result = yield* resolve(credential, true)
          if (result._tag === "Limited") return result.response
          return yield* Effect.provideService(httpEffect, CurrentPartner, result.partner!)
        })
    })
  })
)

export const OptionalPartnerAuthLayer = Layer.effect(
  OptionalPartnerAuth,
  Effect.gen(function* () {
    const resolve = yield* makeResolver
    return OptionalPartnerAuth.of({
      bearer: (httpEffect, { credential }) =>
        Effect.gen(function* () {
          const result = yield* resolve(credential, false)
          if (result._tag === "Limited") return result.response
          return yield* Effect.provideService(httpEffect, MaybePartner, { partner: result.partner })
        })
    })
  })
)

// One per-IP limiter check, shared by the two IP-limited middlewares.
const ipLimit = (scope: "ip" | "register") =>
  Effect.gen(function* () {
    const limits = yield* RateLimits
    const config = yield* AppConfig
    return Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const verdict = yield* limits.take(scope, `${scope}:${clientIp(request, config.trustProxy)}`)
      return verdict.allowed ? undefined : limits.tooMany(scope, verdict)
    })
  })

export const IpRateLimitLayer = Layer.effect(
  IpRateLimit,
  Effect.map(ipLimit("ip"), (check) =>
    IpRateLimit.of((httpEffect) =>
      Effect.flatMap(check, (limited) => (limited === undefined ? httpEffect : Effect.succeed(limited)))
    )
  )
)
export const RegistrationRateLimitLayer = Layer.effect(
  RegistrationRateLimit,
  Effect.map(ipLimit("register"), (check) =>
    RegistrationRateLimit.of((httpEffect) =>
      Effect.flatMap(check, (limited) => (limited === undefined ? httpEffect : Effect.succeed(limited)))
    )
  )
)

/** Every auth/limit middleware of /api/v1 (they need Partners and RateLimits, one instance per service). */
export const V1AuthLayers = Layer.mergeAll(
  PartnerAuthLayer,
  OptionalPartnerAuthLayer,
  IpRateLimitLayer,
  RegistrationRateLimitLayer
)
