import { Schema, SchemaIssue } from "effect"
import { withoutControlCharacters } from "../domain/text/controlCharacters.ts"

// Every error the API answers with has one body shape:
//   { "error": { "code": "...", "message": "...", "details"?: ... } }
// Each status gets its own class so HttpApi documents it in the OpenAPI and
// handlers can fail with a typed value.
export const ErrorBody = Schema.Struct({
  code: Schema.String,
  message: Schema.String,
  details: Schema.optional(Schema.Unknown)
})
export type ErrorBody = typeof ErrorBody.Type

const fields = { error: ErrorBody }

export class BadRequest extends Schema.Error<BadRequest>("BadRequest")(fields, { httpApiStatus: 400 }) {}
export class Unauthorized extends Schema.Error<Unauthorized>("Unauthorized")(fields, { httpApiStatus: 401 }) {}
export class Forbidden extends Schema.Error<Forbidden>("Forbidden")(fields, { httpApiStatus: 403 }) {}
export class NotFound extends Schema.Error<NotFound>("NotFound")(fields, { httpApiStatus: 404 }) {}
export class Conflict extends Schema.Error<Conflict>("Conflict")(fields, { httpApiStatus: 409 }) {}
export class PayloadTooLarge extends Schema.Error<PayloadTooLarge>("PayloadTooLarge")(fields, { httpApiStatus: 413 }) {}
export class TooManyRequests extends Schema.Error<TooManyRequests>("TooManyRequests")(fields, { httpApiStatus: 429 }) {}
export class ServiceUnavailable extends Schema.Error<ServiceUnavailable>("ServiceUnavailable")(fields, {
  httpApiStatus: 503
}) {}

/** Shorthands, so handlers read `badRequest("limit", "must be 1..100")`. */
export const badRequest = (field: string, message: string, details?: unknown) =>
  new BadRequest({
    error: { code: "invalid_parameter", message: `${field}: ${message}`, details: details ?? { field } }
  })
export const notFound = (what: string, message: string) =>
  new NotFound({ error: { code: `${what}_not_found`, message } })
export const unauthorized = (message: string) => new Unauthorized({ error: { code: "unauthorized", message } })
export const unavailable = (code: string, message: string) => new ServiceUnavailable({ error: { code, message } })
export const conflict = (code: string, message: string) => new Conflict({ error: { code, message } })

export interface FieldIssue {
  readonly field: string
  readonly message: string
}

const standard = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * Flattens a schema issue into `{ field, message }` pairs, the field as a
 * dotted path. Messages may quote the client's value, and field names are
 * the client's keys: both without the control characters they may carry.
 */
export const fieldIssues = (issue: SchemaIssue.Issue): ReadonlyArray<FieldIssue> =>
  standard(issue).issues.map((entry) => ({
    field: withoutControlCharacters(
      (entry.path ?? []).map((segment) => String(typeof segment === "object" ? segment.key : segment)).join(".") ||
        "(root)"
    ),
    message: withoutControlCharacters(entry.message)
  }))

/** A JSON body an API client can act on, for whatever the error value is. */
export const errorJson = (status: number, code: string, message: string, details?: unknown) => ({
  status,
  body: { error: details === undefined ? { code, message } : { code, message, details } }
})
