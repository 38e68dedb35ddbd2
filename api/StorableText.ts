import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest, type FieldIssue } from "./errors.ts"
import { StorableText } from "./RequestChecksApi.ts"

/**
 * Refuses, with a 400 naming the field, a NUL character or a lone UTF-16
 * surrogate in any path or query parameter or JSON body string of the HttpApi
 * routes whose inputs reach the store. Neither is text a person or a program
 * means, and neither can be stored (PostgreSQL refuses NUL in text, both stores
 * refuse a lone surrogate): let through, they reached the store and came back
 * as a 503 "storage unavailable", which a client retries forever. The
 * middleware is declared in RequestChecksApi.ts (the contract); this is its check.
 */

const NUL = /\u0000/
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
// In JSON text both can only arrive as escapes: a cheap test before parsing the body again.
const ESCAPE_TO_CHECK = /\\u(?:0000|[dD][89a-fA-F])/

/**
 * Groups whose inputs only reach the search engine, which takes any text: a
 * search phrase keeps working with a stray control character in it (removed
 * from what is rendered) rather than being refused.
 */
const SEARCH_ONLY_GROUPS: ReadonlySet<string> = new Set(["discovery", "products", "system"])

const problemOf = (text: string): string | undefined =>
  NUL.test(text)
    ? "must not contain a NUL character (U+0000)"
    : LONE_SURROGATE.test(text)
      ? "must not contain a lone UTF-16 surrogate (not text: a broken encoding)"
      : undefined

/** The first string (or key) of a JSON value that holds either, with its dotted path. */
const findInJson = (value: unknown, path: string): FieldIssue | undefined => {
  if (typeof value === "string") {
    const problem = problemOf(value)
    return problem === undefined ? undefined : { field: path || "(root)", message: problem }
  }
  if (typeof value !== "object" || value === null) return undefined
  for (const [key, item] of Object.entries(value)) {
    const field = path === "" ? key : `${path}.${key}`
    const keyProblem = problemOf(key)
    if (keyProblem !== undefined) return { field, message: `the property name ${keyProblem}` }
    const found = findInJson(item, field)
    if (found !== undefined) return found
  }
  return undefined
}

const refuse = (where: "path" | "query" | "body", issue: FieldIssue) =>
  Effect.fail(
    new BadRequest({
      error: {
        code: where === "body" ? "invalid_body" : "invalid_parameter",
        message: `${where} parameter '${issue.field}': ${issue.message}`,
        details: [{ ...issue, in: where }]
      }
    })
  )

const bodyIssue = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["content-type"] ?? "").includes("json")
    ? request.text.pipe(
        Effect.map((text) => {
          if (!ESCAPE_TO_CHECK.test(text)) return undefined
          try {
            return findInJson(JSON.parse(text), "")
          } catch {
            return undefined // not JSON: the payload decoding answers it
          }
        }),
        // a body that cannot be read (too large, cut off) is answered where it is decoded
        Effect.orElseSucceed(() => undefined)
      )
    : Effect.succeed(undefined)

export const StorableTextLayer = Layer.succeed(
  StorableText,
  StorableText.of((httpEffect, { group }) =>
    Effect.gen(function* () {
      if (SEARCH_ONLY_GROUPS.has(group.identifier)) return yield* httpEffect
      const request = yield* HttpServerRequest.HttpServerRequest
      for (const [field, value] of Object.entries(yield* HttpRouter.params)) {
        const problem = value === undefined ? undefined : problemOf(value)
        if (problem !== undefined) return yield* refuse("path", { field, message: problem })
      }
      const query = request.url.indexOf("?")
      if (query >= 0 && request.url.includes("%00")) {
        for (const [field, value] of new URLSearchParams(request.url.slice(query + 1))) {
          const problem = problemOf(field) ?? problemOf(value)
          if (problem !== undefined) return yield* refuse("query", { field, message: problem })
        }
      }
      if (request.method !== "GET" && request.method !== "HEAD") {
        const issue = yield* bodyIssue(request)
        if (issue !== undefined) return yield* refuse("body", issue)
      }
      return yield* httpEffect
    })
  )
)
