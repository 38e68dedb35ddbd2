import { ByteSize, Clock, Effect, Redacted } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { ConversionLedger } from "../../../conversions/ConversionLedger.ts"
import { unstorable } from "../../../conversions/ledgerRows.ts"
import { parsePostbackBody } from "../../../conversions/PostbackBody.ts"
import { REPLAY_WINDOW_SECONDS, verifySignature } from "../../../conversions/PostbackSignature.ts"
import { ReportingRates } from "../../../conversions/ReportingRates.ts"
import { AppConfig } from "../../../infra/AppConfig.ts"
import { Metrics } from "../../../infra/Metrics.ts"
import { errorJson } from "../../errors.ts"
import { MAX_BODY_BYTES, POSTBACK_PATH } from "./postbackRoute.ts"

// POST /api/v1/conversions/postback. A raw HttpRouter route rather than an
// HttpApi endpoint on purpose: the HMAC covers the exact bytes the network
// sent, and HttpApi decodes (and re-encodes) the body before a handler sees
// it. Order of checks: postbacks configured at all (403 naming
// POSTBACK_SECRETS), size (413), signature and replay window (401, or 400 for
// a malformed timestamp), then the body (400 naming the field), then the
// write, which also claims the signature (401 `replay` when it was accepted
// before; 503 if the database is unavailable). Any row invalid = nothing written.
/**
 * A claimed signature is kept this long past the window: the window is
 * checked in whole seconds on each replica's clock, and a replica whose clock
 * runs ahead must not forget a signature another one would still accept.
 */
const CLOCK_SKEW_SECONDS = 60

/** Seconds a network waits before retrying a postback the store could not take (503). */
const RETRY_AFTER_SECONDS = 5
/** Refuses a body that is not UTF-8 rather than storing U+FFFD where the network sent other bytes. */
const utf8 = new TextDecoder("utf-8", { fatal: true })

const fail = (status: number, code: string, message: string, details?: unknown) => {
  const { body } = errorJson(status, code, message, details)
  const headers = status === 503 ? { "retry-after": String(RETRY_AFTER_SECONDS) } : undefined
  return HttpServerResponse.jsonUnsafe(body, { status, headers })
}

export const PostbackRoute = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const ledger = yield* ConversionLedger
    const rates = yield* ReportingRates
    const metrics = yield* Metrics
    const accepted = metrics.counter("conversion_postbacks_total", "Conversion postbacks by outcome", {
      outcome: "accepted"
    })
    const refused = metrics.counter("conversion_postbacks_total", "Conversion postbacks by outcome", {
      outcome: "refused"
    })
    const refuse = (status: number, code: string, message: string, details?: unknown) =>
      Effect.sync(() => {
        refused.inc()
        return fail(status, code, message, details)
      })

    const enabled = Object.keys(config.postbackSecrets).length > 0
    if (!enabled) {
      yield* Effect.logWarning(
        "postbacks are off: POSTBACK_SECRETS is not set, so /api/v1/conversions/postback refuses every request (403)"
      )
    }

    yield* router.add("POST", POSTBACK_PATH, (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        if (!enabled) {
          return yield* refuse(
            403,
            "postbacks_disabled",
            "postbacks are off on this server: set POSTBACK_SECRETS (network id -> shared secret) to accept them",
            { variable: "POSTBACK_SECRETS" }
          )
        }
        const declared = Number(request.headers["content-length"] ?? "0")
        if (declared > MAX_BODY_BYTES)
          return yield* refuse(413, "payload_too_large", `body larger than ${MAX_BODY_BYTES} bytes`)
        // Chunked bodies carry no length: the read itself stops past the limit.
        const read = yield* request.arrayBuffer.pipe(
          Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(MAX_BODY_BYTES)),
          Effect.result
        )
        if (read._tag === "Failure") {
          return yield* refuse(
            413,
            "payload_too_large",
            `body larger than ${MAX_BODY_BYTES} bytes, or it could not be read`
          )
        }
        const bytes = new Uint8Array(read.success)

        const network = request.headers["x-network"] ?? ""
        const secrets = Object.hasOwn(config.postbackSecrets, network) ? config.postbackSecrets[network] : undefined
        const nowMillis = yield* Clock.currentTimeMillis
        const timestamp = request.headers["x-timestamp"]
        const signature = request.headers["x-signature"]
        const check = verifySignature({
          secrets: secrets?.map((secret) => Redacted.value(secret)),
          timestamp,
          signature,
          body: bytes,
          nowSeconds: Math.floor(nowMillis / 1000)
        })
        if (!check.ok) {
          return check.status === 401
            ? yield* refuse(401, "unauthorized", `${check.field}: ${check.message}`, { field: check.field })
            : yield* refuse(400, "invalid_parameter", `${check.field}: ${check.message}`, { field: check.field })
        }

        let text: string
        try {
          text = utf8.decode(bytes)
        } catch {
          return yield* refuse(400, "invalid_parameter", "(body): not valid UTF-8", { field: "(body)" })
        }
        const body = parsePostbackBody(text, network, new Date(nowMillis))
        if (!body.ok) {
          const where = body.row === undefined ? {} : { row: body.row }
          return yield* refuse(400, "invalid_parameter", `${body.field}: ${body.message}`, {
            field: body.field,
            ...where
          })
        }
        for (const record of body.records) {
          const problem = unstorable(rates, record)
          if (problem !== undefined) {
            const field = problem.split(":")[0]
            return yield* refuse(400, "invalid_parameter", `${problem} (transaction ${record.networkTxId})`, { field })
          }
        }

        // Verified above, so both headers are there and the timestamp is digits.
        const claim = {
          network,
          signature: signature!,
          expiresAt: new Date((Number(timestamp) + REPLAY_WINDOW_SECONDS + CLOCK_SKEW_SECONDS) * 1000)
        }
        const result = yield* ledger.upsertPostback(body.records, claim).pipe(Effect.result)
        if (result._tag === "Failure" && result.failure._tag === "PostbackReplayed") {
          const message = `X-Signature: ${result.failure.message}; sign a new request to send it again`
          return yield* refuse(401, "replay", message, { field: "X-Signature" })
        }
        if (result._tag === "Failure") {
          yield* Effect.logError("postback: could not store conversions", result.failure.message)
          return yield* refuse(503, "storage_unavailable", "conversions could not be stored; retry later")
        }
        accepted.inc()
        const { inserted, updated, unchanged, stale, ids } = result.success
        return HttpServerResponse.jsonUnsafe({ accepted: ids.length, inserted, updated, unchanged, stale, ids })
      })
    )
  })
)
