import { Clock, Duration, Effect, Layer, Result, Schedule } from "effect"
import * as ByteSize from "effect/ByteSize"
import { HttpEffect, HttpIncomingMessage, HttpRouter, HttpServerRequest } from "effect/http"
import { AppConfig } from "../../infra/AppConfig.ts"
import { errorResponse, MAX_BODY_BYTES, payloadTooLarge } from "../ErrorResponses.ts"
import { clientIp } from "../v1/auth/clientIp.ts"
import { RateLimits, type RateLimitScope } from "../../partners/RateLimits.ts"
import { API_KEY_PATTERN, Partners } from "../../partners/Partners.ts"
import { documentedAnswer, INVALID_PARAMS, jsonRpcError, SERVER_LIMIT, sessionNotFound } from "./mcpHttpAnswers.ts"
import { McpSessionTable } from "./McpSessionTable.ts"

/**
 * What the MCP server sets no bound on, bounded in front of it, with the JSON
 * API's answers:
 * - Body size: read here with the API's byte cap, declared (Content-Length)
 *   or not (chunked), so the transport finds it read and bounded: 413.
 * - Rate limits: the buckets of /api/v1 (RateLimits is one instance per
 *   service), a partner's key bucket, else the caller's IP bucket, and the
 *   same 429. Every JSON-RPC message costs one token: a batch (2025-03-26
 *   sessions take them) costs its length, not one request.
 * - Sessions: at most `mcpSessions.perKey` open per partner key and
 *   `perIp` per anonymous client IP; one idle for `idleSeconds` is ended (as
 *   its client's DELETE would); initialize params (clientInfo, capabilities,
 *   _meta: kept for the whole session) are bounded. Refusals are JSON-RPC errors.
 * - Answers: the transport's bare HTTP refusals get our JSON error body, its
 *   JSON-RPC errors lose their internal `_tag` (mcpHttpAnswers.ts).
 */

/** clientInfo, capabilities and _meta of an initialize together: a real client sends well under 1 KiB. */
export const MAX_INITIALIZE_PARAMS_BYTES = 8 * 1024
/**
 * Open sessions of all callers together: per-address caps alone grow with
 * the addresses a caller can use (an IPv6 prefix has plenty). With the
 * params bound, at most about 80 MB of kept initialize payloads.
 */
export const MAX_OPEN_SESSIONS = 10_000
const SESSION_HEADER = "mcp-session-id"
const maxBodySize = ByteSize.bytes(BigInt(MAX_BODY_BYTES))

/** The DELETE requests the guard itself sends to end idle sessions: not guarded again. */
const internalRequests = new WeakSet<HttpServerRequest.HttpServerRequest>()

const isBodyTooLarge = (error: unknown) => {
  const reason = (error as { reason?: { _tag?: string; reason?: string } }).reason
  return reason?._tag === "RequestParseError" && reason.reason === "BodyTooLarge"
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined // the transport answers its own JSON-RPC parse error
  }
}

type Initialize = { readonly id?: unknown; readonly method: "initialize"; readonly params?: unknown }
const isInitialize = (message: unknown): message is Initialize =>
  typeof message === "object" && message !== null && (message as { method?: unknown }).method === "initialize"

export const McpHttpGuard = HttpRouter.middleware(
  Effect.gen(function* () {
    const limits = yield* RateLimits
    const partners = yield* Partners
    const config = yield* AppConfig
    const router = yield* HttpRouter.HttpRouter
    const clock = yield* Clock.Clock
    const now = () => clock.currentTimeMillisUnsafe()
    const { idleSeconds, perKey, perIp } = config.mcpSessions
    const sessions = new McpSessionTable(idleSeconds * 1000, MAX_OPEN_SESSIONS)

    /** Ends a session in the MCP server as its client's DELETE would: its state is freed, its requests interrupted. */
    const end = (sessionId: string) => {
      sessions.close(sessionId)
      const request = HttpServerRequest.fromWeb(
        new Request("http://localhost/mcp", { method: "DELETE", headers: { [SESSION_HEADER]: sessionId } })
      )
      internalRequests.add(request)
      return router
        .asHttpEffect()
        .pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, request), Effect.scoped, Effect.ignore)
    }
    const sweepEvery = Duration.millis(Math.min(60_000, Math.max(250, (idleSeconds * 1000) / 4)))
    yield* Effect.forkScoped(
      Effect.repeat(
        Effect.suspend(() => Effect.forEach(sessions.idle(now()), end, { discard: true })),
        Schedule.spaced(sweepEvery)
      )
    )

    const callerOf = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const key = /^Bearer\s+(\S+)$/i.exec(request.headers["authorization"]?.trim() ?? "")?.[1]
        const partner =
          key !== undefined && API_KEY_PATTERN.test(key)
            ? yield* partners.authenticate(key).pipe(Effect.orElseSucceed(() => undefined))
            : undefined
        return partner !== undefined
          ? { scope: "key" as RateLimitScope, owner: `key:${partner.id}`, sessionLimit: perKey }
          : { scope: "ip" as RateLimitScope, owner: `ip:${clientIp(request, config.trustProxy)}`, sessionLimit: perIp }
      })

    /** `count` tokens, one per message; the first one missing refuses the whole request. */
    const take = (scope: RateLimitScope, bucket: string, count: number) =>
      Effect.gen(function* () {
        for (let i = 1; i < count; i++) {
          const verdict = yield* limits.take(scope, bucket)
          if (!verdict.allowed) return verdict
        }
        return yield* limits.take(scope, bucket)
      })

    const refuseInitialize = (message: Initialize, caller: Effect.Success<ReturnType<typeof callerOf>>) => {
      const bytes = Buffer.byteLength(JSON.stringify(message.params ?? {}))
      if (bytes > MAX_INITIALIZE_PARAMS_BYTES) {
        return jsonRpcError(
          message.id,
          INVALID_PARAMS,
          `initialize params are ${bytes} bytes: clientInfo, capabilities and _meta together may take at most ` +
            `${MAX_INITIALIZE_PARAMS_BYTES}`,
          { max_bytes: MAX_INITIALIZE_PARAMS_BYTES, bytes }
        )
      }
      const reserved = sessions.reserve(caller.owner, caller.sessionLimit)
      if (reserved === "all_full") {
        return jsonRpcError(
          message.id,
          SERVER_LIMIT,
          `this server holds its maximum of ${MAX_OPEN_SESSIONS} open MCP sessions; retry in a few minutes`,
          { scope: "server", limit: MAX_OPEN_SESSIONS, idle_seconds: idleSeconds }
        )
      }
      if (reserved === "owner_full") {
        const whose = caller.scope === "key" ? "this API key" : "this client address"
        return jsonRpcError(
          message.id,
          SERVER_LIMIT,
          `too many open MCP sessions for ${whose} (at most ${caller.sessionLimit}): end one with DELETE /mcp ` +
            `and its Mcp-Session-Id, or wait until one has been idle for ${idleSeconds} s`,
          { scope: caller.scope, limit: caller.sessionLimit, idle_seconds: idleSeconds }
        )
      }
      return undefined
    }

    return (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        if (internalRequests.has(request)) return yield* httpEffect
        if (Number(request.headers["content-length"] ?? 0) > MAX_BODY_BYTES) return payloadTooLarge()
        let message: unknown = undefined
        if (request.method === "POST") {
          const text = yield* Effect.result(
            request.text.pipe(Effect.provideService(HttpIncomingMessage.MaxBodySize, maxBodySize))
          )
          if (Result.isFailure(text)) {
            return isBodyTooLarge(text.failure)
              ? payloadTooLarge()
              : errorResponse(400, { code: "invalid_request", message: "the request body could not be read" })
          }
          message = parseJson(text.success)
        }
        const wasBatch = Array.isArray(message)
        const caller = yield* callerOf(request)
        // the owner ("key:<partner id>" or "ip:<address>") is also the bucket's name on /api/v1
        const verdict = yield* take(caller.scope, caller.owner, wasBatch ? Math.max(1, (message as []).length) : 1)
        if (!verdict.allowed) return limits.tooMany(caller.scope, verdict)

        const sessionId = request.headers[SESSION_HEADER]
        if (sessionId !== undefined && sessions.touch(sessionId, now()) === "expired") {
          yield* end(sessionId)
          return sessionNotFound()
        }
        const opening = isInitialize(message)
        if (isInitialize(message)) {
          const refusal = refuseInitialize(message, caller)
          if (refusal !== undefined) return refusal
        }
        const response = yield* opening
          ? httpEffect.pipe(Effect.onError(() => Effect.sync(() => sessions.release(caller.owner))))
          : httpEffect
        // After the transport's own pre-response handlers (which set the new
        // session's id header, or turn an answer into a bare 404/202): we see the final answer.
        yield* HttpEffect.appendPreResponseHandler((_, answer) =>
          Effect.sync(() => {
            if (opening) {
              const opened = answer.status < 300 ? answer.headers[SESSION_HEADER] : undefined
              if (opened !== undefined) sessions.open(opened, caller.owner, now())
              else sessions.release(caller.owner)
            } else if (request.method === "DELETE" && sessionId !== undefined && answer.status === 204) {
              sessions.close(sessionId)
            }
            return documentedAnswer(answer, request.method, wasBatch)
          })
        )
        return response
      })
  })
).layer
