import { Effect, Layer, Result } from "effect"
import * as ByteSize from "effect/ByteSize"
import {
  Headers,
  HttpEffect,
  HttpIncomingMessage,
  HttpRouter,
  HttpServerRequest,
  type HttpServerResponse
} from "effect/http"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Metrics } from "../../infra/Metrics.ts"
import { errorResponse, MAX_BODY_BYTES, payloadTooLarge } from "../ErrorResponses.ts"
import { clientIp } from "../v1/auth/clientIp.ts"
import { RateLimits, type RateLimitScope } from "../../partners/RateLimits.ts"
import { API_KEY_PATTERN, Partners } from "../../partners/Partners.ts"
import { documentedAnswer, INVALID_PARAMS, jsonRpcError, noSessionToEnd } from "./mcpHttpAnswers.ts"
import {
  makeRequestSessions,
  requestVersion,
  SESSION_HEADER,
  withHeaders,
  withoutSessionHeader
} from "./requestSessions.ts"

/**
 * What the MCP server sets no bound on, bounded in front of it, with the JSON
 * API's answers; and the statelessness of /mcp:
 * - Body size: read here with the API's byte cap, declared (Content-Length)
 *   or not (chunked), so the transport finds it read and bounded: 413.
 * - Rate limits: the buckets of /api/v1 (RateLimits is one instance per
 *   service; shared by all replicas on PostgreSQL), a partner's key bucket,
 *   else the caller's IP bucket, and the same 429. Every JSON-RPC message
 *   costs one token: a batch (2025-03-26 takes them) costs its length, not one
 *   request. They are the only per-caller bound: no session outlives its
 *   request, so there is nothing else a caller can pile up.
 * - Sessions: none is kept for a client (requestSessions.ts). initialize is
 *   answered without Mcp-Session-Id; every other request runs in a session of
 *   the process it reaches, lent to it alone while it runs, on whichever
 *   replica receives it. An Mcp-Session-Id a client
 *   still sends (from before, or from another server) is ignored, never a 404.
 *   DELETE has no session to end: 405.
 * - initialize params (clientInfo, capabilities, _meta) are bounded.
 * - Answers: the transport's bare HTTP refusals get our JSON error body, its
 *   JSON-RPC errors lose their internal `_tag` (mcpHttpAnswers.ts).
 */

/** clientInfo, capabilities and _meta of an initialize together: a real client sends well under 1 KiB. */
export const MAX_INITIALIZE_PARAMS_BYTES = 8 * 1024
const maxBodySize = ByteSize.bytes(BigInt(MAX_BODY_BYTES))

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

/** A request that sets the session's log level leaves state in it: that session is not lent again. */
const changesLogLevel = (message: unknown) =>
  (Array.isArray(message) ? message : [message]).some(
    (part) => typeof part === "object" && part !== null && (part as { method?: unknown }).method === "logging/setLevel"
  )

type Initialize = { readonly id?: unknown; readonly method: "initialize"; readonly params?: unknown }
const isInitialize = (message: unknown): message is Initialize =>
  typeof message === "object" && message !== null && (message as { method?: unknown }).method === "initialize"

export const McpHttpGuard = HttpRouter.middleware(
  Effect.gen(function* () {
    const limits = yield* RateLimits
    const partners = yield* Partners
    const config = yield* AppConfig
    const sessions = makeRequestSessions(yield* HttpRouter.HttpRouter, yield* Metrics)

    const callerOf = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const key = /^Bearer\s+(\S+)$/i.exec(request.headers["authorization"]?.trim() ?? "")?.[1]
        const partner =
          key !== undefined && API_KEY_PATTERN.test(key)
            ? yield* partners.authenticate(key).pipe(Effect.orElseSucceed(() => undefined))
            : undefined
        return partner !== undefined
          ? { scope: "key" as RateLimitScope, bucket: `key:${partner.id}` }
          : { scope: "ip" as RateLimitScope, bucket: `ip:${clientIp(request, config.trustProxy)}` }
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

    const tooLargeInitialize = (message: Initialize) => {
      const bytes = Buffer.byteLength(JSON.stringify(message.params ?? {}))
      return bytes > MAX_INITIALIZE_PARAMS_BYTES
        ? jsonRpcError(
            message.id,
            INVALID_PARAMS,
            `initialize params are ${bytes} bytes: clientInfo, capabilities and _meta together may take at most ` +
              `${MAX_INITIALIZE_PARAMS_BYTES}`,
            { max_bytes: MAX_INITIALIZE_PARAMS_BYTES, bytes }
          )
        : undefined
    }

    return (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        if (sessions.isInternal(request)) return yield* httpEffect
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
        // the bucket ("key:<partner id>" or "ip:<address>") is the one /api/v1 takes from
        const verdict = yield* take(caller.scope, caller.bucket, wasBatch ? Math.max(1, (message as []).length) : 1)
        if (!verdict.allowed) return limits.tooMany(caller.scope, verdict)
        if (request.method === "DELETE") return noSessionToEnd()

        if (isInitialize(message)) {
          const refusal = tooLargeInitialize(message)
          if (refusal !== undefined) return refusal
        }
        let response: HttpServerResponse.HttpServerResponse
        const answered = { status: 0 }
        const version = requestVersion(request)
        if (request.method !== "POST" || isInitialize(message) || version === undefined) {
          // initialize opens a session we end below; a revision we do not speak is the transport's to refuse
          response = yield* httpEffect
        } else {
          // a session lent to this request alone until its answer is written (the request's scope closes after the write)
          const sessionId = yield* sessions.lend(version)
          const headers = Headers.remove(request.headers, SESSION_HEADER)
          if (sessionId !== undefined) {
            // given back once the answer is written; not reused after a log level change or an answer without it
            yield* Effect.addFinalizer(() =>
              sessions.giveBack(sessionId, version, !changesLogLevel(message) && answered.status !== 404)
            )
          }
          const inSession = withHeaders(
            request,
            sessionId === undefined ? headers : Headers.set(headers, SESSION_HEADER, sessionId)
          )
          response = yield* Effect.provideService(httpEffect, HttpServerRequest.HttpServerRequest, inSession)
        }
        // After the transport's own pre-response handlers (which set the new
        // session's id header, or turn an answer into a bare 404/202): we see the final answer.
        yield* HttpEffect.appendPreResponseHandler((_, answer) =>
          Effect.gen(function* () {
            answered.status = answer.status
            // the session initialize opened is not kept: the client gets no id and sends none
            const opened = isInitialize(message) ? answer.headers[SESSION_HEADER] : undefined
            if (opened !== undefined) yield* sessions.end(opened)
            return documentedAnswer(withoutSessionHeader(answer), request.method, wasBatch)
          })
        )
        return response
      })
  })
).layer
