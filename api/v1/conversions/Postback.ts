import { ByteSize, Clock, Effect, Redacted } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { ConversionLedger, unstorable } from "../../../conversions/ConversionLedger.ts"
import { parsePostbackBody } from "../../../conversions/PostbackBody.ts"
import { verifySignature } from "../../../conversions/PostbackSignature.ts"
import { ReportingRates } from "../../../conversions/ReportingRates.ts"
import { AppConfig } from "../../../infra/AppConfig.ts"
import { Metrics } from "../../../infra/Metrics.ts"
import { errorJson } from "../../errors.ts"

// POST /api/v1/conversions/postback. A raw HttpRouter route rather than an
// HttpApi endpoint on purpose: the HMAC covers the exact bytes the network
// sent, and HttpApi decodes (and re-encodes) the body before a handler sees
// it. Order of checks: size (413), signature and replay window (401, or 400 for
// a malformed timestamp), then the body (400 naming the field), then the
// write (503 if the database is unavailable). Any row invalid = nothing written.
export const POSTBACK_PATH = "/api/v1/conversions/postback"
export const MAX_BODY_BYTES = 256 * 1024

const fail = (status: number, code: string, message: string, details?: unknown) => {
  const { body } = errorJson(status, code, message, details)
  return HttpServerResponse.jsonUnsafe(body, { status })
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

    yield* router.add("POST", POSTBACK_PATH, (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
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
        const secret = Object.hasOwn(config.postbackSecrets, network) ? config.postbackSecrets[network] : undefined
        const check = verifySignature({
          secret: secret === undefined ? undefined : Redacted.value(secret),
          timestamp: request.headers["x-timestamp"],
          signature: request.headers["x-signature"],
          body: bytes,
          nowSeconds: Math.floor((yield* Clock.currentTimeMillis) / 1000)
        })
        if (!check.ok) {
          return check.status === 401
            ? yield* refuse(401, "unauthorized", `${check.field}: ${check.message}`, { field: check.field })
            : yield* refuse(400, "invalid_parameter", `${check.field}: ${check.message}`, { field: check.field })
        }

        const body = parsePostbackBody(new TextDecoder().decode(bytes), network)
        if (!body.ok)
          return yield* refuse(400, "invalid_parameter", `${body.field}: ${body.message}`, { field: body.field })
        for (const record of body.records) {
          const problem = unstorable(rates, record)
          if (problem !== undefined) {
            const field = problem.split(":")[0]
            return yield* refuse(400, "invalid_parameter", `${problem} (transaction ${record.networkTxId})`, { field })
          }
        }

        const result = yield* ledger.upsert(body.records, "postback").pipe(Effect.result)
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
