import { Effect, Schema } from "effect"
import { fieldIssues } from "../errors.ts"
import type { ToolFailure } from "./toolDefinitions.ts"

// Tool failures of our own tools carry the JSON API's error body, with its
// codes and messages, so an agent reads the same
// `{ error: { code, message, details? } }` on /mcp as on /api. (The UCP
// catalog tools turn them into UCP error answers: CatalogTools.ts.)

export const toolFailure = (code: string, message: string, details?: unknown): ToolFailure => ({
  error: details === undefined ? { code, message } : { code, message, details }
})

/** An error value of the JSON API (BadRequest, ServiceUnavailable, ...) as a tool failure. */
export const asToolFailure = (error: { readonly error: ToolFailure["error"] }): ToolFailure => ({ error: error.error })

export const invalidArgument = (field: string, message: string) =>
  toolFailure("invalid_parameter", `arguments parameter '${field}': ${message}`, [{ field, message, in: "arguments" }])

/** A key the tool does not read: said as such, since a typo ("filter") would otherwise go unnoticed. */
const UNKNOWN_KEY = "Expected no excess property"
const worded = (message: string) =>
  message === UNKNOWN_KEY ? "unknown key: this tool does not read it (see the tool's input schema)" : message

/**
 * Decodes a tool's arguments; a bad one fails like a bad query parameter
 * does on /api (code invalid_parameter, naming the field). Keys the tool does
 * not read are refused, not ignored: an agent that misspells a filter must
 * not get unfiltered results it takes for filtered ones.
 */
export const decodeArguments = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) => {
  const decode = Schema.decodeUnknownEffect(schema)
  return (input: unknown): Effect.Effect<S["Type"], ToolFailure> =>
    decode(input ?? {}, { errors: "all", onExcessProperty: "error" }).pipe(
      Effect.mapError((error) => {
        const issues = fieldIssues(error.issue).map((issue) => ({ ...issue, message: worded(issue.message) }))
        const first = issues[0]
        const message =
          first === undefined
            ? "invalid arguments"
            : first.field === "(root)"
              ? `arguments: ${first.message}`
              : `arguments parameter '${first.field}': ${first.message}`
        return toolFailure(
          "invalid_parameter",
          message,
          issues.map((issue) => ({ ...issue, in: "arguments" }))
        )
      })
    )
}
