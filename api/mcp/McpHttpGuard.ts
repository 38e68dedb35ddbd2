import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { AppConfig } from "../../infra/AppConfig.ts"
import { MAX_BODY_BYTES, payloadTooLarge } from "../ErrorResponses.ts"
import { clientIp } from "../v1/auth/clientIp.ts"
import { RateLimits } from "../../partners/RateLimits.ts"
import { API_KEY_PATTERN, Partners } from "../../partners/Partners.ts"

/**
 * The JSON API's guards in front of /mcp. Rate limits: the same buckets as
 * /api/v1 (RateLimits.layer is one instance per service), a partner's key
 * bucket, else the caller's IP bucket, and the same 429 body; every MCP
 * message is one request. Body size: the MCP transport reads the body outside
 * the request's services, where the API's MaxBodySize does not reach, so a
 * declared length over the bound is refused here with the API's 413.
 */
export const McpHttpGuard = HttpRouter.middleware(
  Effect.gen(function* () {
    const limits = yield* RateLimits
    const partners = yield* Partners
    const config = yield* AppConfig
    return (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        if (Number(request.headers["content-length"] ?? 0) > MAX_BODY_BYTES) {
          return payloadTooLarge()
        }
        const key = /^Bearer\s+(\S+)$/i.exec(request.headers["authorization"]?.trim() ?? "")?.[1]
        const partner =
          key !== undefined && API_KEY_PATTERN.test(key)
            ? yield* partners.authenticate(key).pipe(Effect.orElseSucceed(() => undefined))
            : undefined
        const [scope, bucket] =
          partner !== undefined
            ? ["key" as const, `key:${partner.id}`]
            : ["ip" as const, `ip:${clientIp(request, config.trustProxy)}`]
        const verdict = yield* limits.take(scope, bucket)
        return verdict.allowed ? yield* httpEffect : limits.tooMany(scope, verdict)
      })
  })
).layer.pipe(Layer.provide(RateLimits.layer))
