import { Cause, Effect, Layer } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type ErrorBody } from "./errors.ts"
import * as ByteSize from "effect/ByteSize"
import { PAGE_SECURITY_HEADERS } from "../discovery/pageShell.ts"
import { MAX_BODY_BYTES } from "./bodyLimit.ts"

export { MAX_BODY_BYTES }

const INTERNAL = "an unexpected error occurred; it has been logged"

/**
 * Seconds a client should wait after a 503 that did not say: a 503 is a real
 * outage (a store or an engine unreachable), and a client needs to know when to
 * come back rather than retry at once or give up.
 */
export const OUTAGE_RETRY_AFTER_SECONDS = 5
/** The body of every 500: a defect is logged, never described to the client. */
export const INTERNAL_ERROR: ErrorBody = { code: "internal_error", message: INTERNAL }

/** Our error body `{ error: { code, message, details? } }` as a response, for answers built outside HttpApi's error schemas. */
export const errorResponse = (status: number, error: ErrorBody, headers?: Readonly<Record<string, string>>) =>
  HttpServerResponse.jsonUnsafe({ error }, headers === undefined ? { status } : { status, headers })

const json = (status: number, code: string, message: string) => errorResponse(status, { code, message })

/** The API's 413, wherever a body over MAX_BODY_BYTES is refused. */
export const payloadTooLarge = () => json(413, "payload_too_large", `request body larger than ${MAX_BODY_BYTES} bytes`)

const wantsHtml = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["accept"] ?? "").includes("text/html")

const pathOf = (request: HttpServerRequest.HttpServerRequest) => request.url.split("?", 1)[0]

const notFoundPage = HttpServerResponse.text(
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>Not found</title></head><body style="font-family:system-ui;max-width:40rem;margin:3rem auto;padding:0 1rem">` +
    `<h1>Page not found</h1><p>There is nothing at this address.</p><p><a href="/">Search for products</a> · <a href="/docs">API documentation</a></p></body></html>`,
  { status: 404, contentType: "text/html; charset=utf-8", headers: PAGE_SECURITY_HEADERS }
)

/**
 * Every path no route claims: a JSON 404 (an HTML page for browsers). A
 * catch-all route rather than a global middleware, so that the redirect, our
 * hottest route, pays nothing for it.
 */
const notFound = Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
  wantsHtml(request) ? notFoundPage : json(404, "not_found", `no route for ${request.method} ${pathOf(request)}`)
)

// HEAD is left out on purpose: the router answers HEAD from a GET route only
// when no HEAD route matches, and a HEAD response has no body to fill anyway.
export const NotFoundRoute = Layer.mergeAll(
  HttpRouter.add("GET", "/*", notFound),
  HttpRouter.add("POST", "/*", notFound),
  HttpRouter.add("PUT", "/*", notFound),
  HttpRouter.add("PATCH", "/*", notFound),
  HttpRouter.add("DELETE", "/*", notFound),
  HttpRouter.add("OPTIONS", "/*", notFound)
)

const isRouteNotFound = (error: unknown) => {
  const failure = error as { _tag?: string; reason?: { _tag?: string } } | undefined
  return failure?._tag === "HttpServerError" && failure.reason?._tag === "RouteNotFound"
}

/**
 * A path the router cannot decode (a malformed percent-escape: /deals/%zz)
 * matches no route, not even NotFoundRoute's catch-all, and the router would
 * answer an empty 404. Global, because only a global middleware sees a request
 * no route took; a matched request pays one pass-through.
 */
export const UnroutablePathFallback = HttpRouter.middleware(
  (httpEffect) => Effect.catch(httpEffect, (error) => (isRouteNotFound(error) ? notFound : Effect.fail(error))),
  { global: true }
)

const failureResponse = (cause: Cause.Cause<unknown>, request: HttpServerRequest.HttpServerRequest) => {
  const squashed = Cause.squash(cause) as { _tag?: string; reason?: unknown } | undefined
  // Body-reading failures arrive wrapped in HttpServerError { reason }.
  const error = (squashed?._tag === "HttpServerError" ? squashed.reason : squashed) as
    { _tag?: string; reason?: string } | undefined
  if (error?._tag === "RequestParseError") {
    return Effect.succeed(
      error.reason === "BodyTooLarge"
        ? payloadTooLarge()
        : json(400, "invalid_request", "the request body could not be read")
    )
  }
  if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
  return Effect.logError("unhandled error while serving a request", cause).pipe(
    Effect.annotateLogs({ method: request.method, path: pathOf(request) }),
    Effect.as(errorResponse(500, INTERNAL_ERROR))
  )
}

// HttpApi answers some failures itself with a bare body; give them ours. HttpApi
// error schemas carry no headers: a handler's 503 gets its Retry-After here.
const normaliseBareErrors = (response: HttpServerResponse.HttpServerResponse) => {
  if (response.status === 503 && response.headers["retry-after"] === undefined) {
    return HttpServerResponse.setHeader(response, "retry-after", String(OUTAGE_RETRY_AFTER_SECONDS))
  }
  if (response.status === 500 && response.body._tag === "Empty") return errorResponse(500, INTERNAL_ERROR)
  if (response.status === 415) {
    return json(415, "unsupported_media_type", "send the request body as JSON with Content-Type: application/json")
  }
  if (response.status === 413 && response.body._tag === "Empty") {
    return payloadTooLarge()
  }
  return response
}

const maxBodySize = ByteSize.bytes(BigInt(MAX_BODY_BYTES))

/**
 * For the API and page routes (not the redirect): bounds request bodies, turns
 * body-parse failures into 400/413, bare HttpApi answers into our JSON body,
 * and a defect into a logged JSON 500 instead of an empty one. Handlers are
 * expected to turn their own failures into typed 4xx/503 errors first.
 */
export const ErrorResponses = HttpRouter.middleware((httpEffect) =>
  httpEffect.pipe(
    Effect.provideService(HttpIncomingMessage.MaxBodySize, maxBodySize),
    Effect.catchCause((cause) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => failureResponse(cause, request))
    ),
    Effect.map(normaliseBareErrors)
  )
).layer

/** Applies ErrorResponses to a group of routes. */
export const withErrorResponses = <A, E, R>(routes: Layer.Layer<A, E, R>) => routes.pipe(Layer.provide(ErrorResponses))
