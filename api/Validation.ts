import { Effect } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest, fieldIssues } from "./errors.ts"
import { RequestValidation } from "./RequestChecksApi.ts"

/**
 * The RequestValidation middleware (declared in RequestChecksApi.ts): turns
 * HttpApi's request-decoding failures (bad query, path, headers or body) into
 * our 400 body naming every offending field. Without it HttpApi answers an
 * empty 400, which tells a client nothing.
 */

const slot: Record<string, string> = {
  Params: "path",
  Query: "query",
  Headers: "header",
  Body: "body",
  Payload: "body",
  ResponseHeaders: "response"
}

export const RequestValidationLayer = HttpApiMiddleware.layerSchemaErrorTransform(RequestValidation, (error) => {
  const where = slot[error.kind] ?? "request"
  const issues = fieldIssues(error.cause.issue)
  const first = issues[0]
  const message =
    first === undefined
      ? `invalid ${where}`
      : first.field === "(root)"
        ? `${where}: ${first.message}`
        : `${where} parameter '${first.field}': ${first.message}`
  return Effect.fail(
    new BadRequest({
      error: {
        code: where === "body" ? "invalid_body" : "invalid_parameter",
        message,
        details: issues.map((issue) => ({ ...issue, in: where }))
      }
    })
  )
})
