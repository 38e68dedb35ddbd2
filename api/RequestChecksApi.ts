import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest } from "./errors.ts"

// The two API-wide request checks as the contract (Api.ts) declares them;
// Validation.ts and StorableText.ts implement them for the server.

/**
 * Turns HttpApi's request-decoding failures (bad query, path, headers or body)
 * into our 400 body naming every offending field. Without it HttpApi answers an
 * empty 400, which tells a client nothing.
 */
export class RequestValidation extends HttpApiMiddleware.Service<RequestValidation>()("app/api/RequestValidation", {
  error: BadRequest
}) {}

/**
 * Refuses, with a 400 naming the field, a NUL character or a lone UTF-16
 * surrogate in any path or query parameter or JSON body string of the HttpApi
 * routes whose inputs reach the store (StorableText.ts says why).
 */
export class StorableText extends HttpApiMiddleware.Service<StorableText>()("app/api/StorableText", {
  error: BadRequest
}) {}
