import { Cause, Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"

const json = (status: number, code: string, message: string) =>
  HttpServerResponse.jsonUnsafe({ error: { code, message } }, { status })

const wantsHtml = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["accept"] ?? "").includes("text/html")

const notFoundPage = HttpServerResponse.html(
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>Not found</title></head><body style="font-family:system-ui;max-width:40rem;margin:3rem auto;padding:0 1rem">` +
    `<h1>Page not found</h1><p>There is nothing at this address.</p><p><a href="/">Back to the start</a></p></body></html>`
).pipe(HttpServerResponse.setStatus(404))

/**
 * The last line of defence, for every route: an unknown path becomes a JSON
 * (or, for browsers, HTML) 404, a malformed request a 400, and a defect a
 * logged JSON 500 instead of an empty body. Handlers are expected to turn
 * their own failures into typed 4xx/503 errors before this point.
 */
export const ErrorResponses = HttpRouter.middleware(
  (httpEffect) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      return yield* httpEffect.pipe(
        Effect.catchCause((cause) => {
          const squashed = Cause.squash(cause) as { _tag?: string; reason?: unknown } | undefined
          // Router and parse failures arrive wrapped in HttpServerError { reason }.
          const error = (squashed?._tag === "HttpServerError" ? squashed.reason : squashed) as
            | { _tag?: string; reason?: string }
            | undefined
          if (error?._tag === "RouteNotFound") {
            return Effect.succeed(wantsHtml(request) ? notFoundPage : json(404, "not_found", `no route for ${request.method} ${request.url.split("?")[0]}`))
          }
          if (error?._tag === "RequestParseError") {
            return Effect.succeed(
              error.reason === "BodyTooLarge"
                ? json(413, "payload_too_large", "request body too large")
                : json(400, "invalid_request", "the request could not be parsed")
            )
          }
          if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
          return Effect.logError("unhandled error while serving a request", cause).pipe(
            Effect.annotateLogs({ method: request.method, path: request.url.split("?")[0] }),
            Effect.as(json(500, "internal_error", "an unexpected error occurred; it has been logged"))
          )
        }),
        // HttpApi renders undeclared defects as an empty 500: give it a body too.
        Effect.map((response) =>
          response.status === 500 && response.body._tag === "Empty"
            ? json(500, "internal_error", "an unexpected error occurred; it has been logged")
            : response
        )
      )
    }),
  { global: true }
)
