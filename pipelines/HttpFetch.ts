import { Clock, Duration, Effect, Option, Stream } from "effect"
import { FetchHttpClient, HttpClient, type HttpClientError, HttpClientRequest, HttpClientResponse } from "effect/http"
import { createHash } from "node:crypto"
import { createWriteStream } from "node:fs"
import { Readable, Transform } from "node:stream"
import { pipeline } from "node:stream/promises"
import { PipelineError } from "./errors.ts"
import type { FeedDefinition } from "./FeedConfig.ts"

// One HTTP request of a feed (with the redirects it takes on its own origin;
// one to another origin fails the run), body streamed to disk and hashed on the way,
// and the retry policy around it: transient failures (network, 5xx, 408)
// back off exponentially, a 429 waits what its Retry-After asks, or, without
// one, until its RateLimit-Reset / X-RateLimit-Reset (impact.com names the
// seconds until its hourly allowance resets there; its brand API pages show
// no Retry-After on a 429, its partner API pages add one). Those waits do not use up
// options.retries (the network said when to come back), but all of a run's
// waits together stay within options.maxRetryAfterMs. 401/403 fail at once
// naming the credential variables. Every URL in a message goes through
// `redact` first.

export interface HttpRequest {
  readonly url: string
  readonly method: "GET" | "POST"
  readonly headers: Record<string, string>
  readonly body?: string | undefined
}

export interface RequestContext {
  /** Hides credentials in anything that may be logged or stored. */
  readonly redact: (text: string) => string
  /** Names of the variables holding the credentials, for 401 messages. */
  readonly credentials: ReadonlyArray<string>
  /** What the run has waited on rate limits so far (shared by its requests); the run result reports it. */
  readonly rateLimited?: { waitedMs: number; waits: number }
}

export type Downloaded =
  | { readonly notModified: true }
  | {
      readonly notModified: false
      readonly sha256: string
      readonly etag: string | undefined
      readonly lastModified: string | undefined
    }

const fail = (feed: FeedDefinition, message: string, retryable = false, retryAfterMs?: number) =>
  new PipelineError({ feed: feed.name, stage: "fetch", message, retryable, retryAfterMs })

const hashStream = (hash: ReturnType<typeof createHash>) =>
  new Transform({
    transform(chunk, _encoding, callback) {
      hash.update(chunk)
      callback(null, chunk)
    }
  })

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export const retryAfterMs = (header: string | null, now = Date.now()): number | undefined => {
  if (header === null || header.trim() === "") return undefined
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/**
 * X-RateLimit-Reset: the seconds until the allowance resets (Impact, after
 * draft-polli-ratelimit-headers), or, as some APIs send it, the reset time
 * as epoch seconds; undefined when absent or unreadable.
 */
export const rateLimitResetMs = (header: string | null, now = Date.now()): number | undefined => {
  if (header === null || !/^\d+$/.test(header.trim())) return undefined
  const seconds = Number(header.trim())
  return seconds > 1_000_000_000 ? Math.max(0, seconds * 1000 - now) : seconds * 1000
}

const describeFetchError = (cause: unknown): string => {
  if (!(cause instanceof Error)) return String(cause)
  const inner = (cause as { cause?: { code?: string; message?: string } }).cause
  return inner?.code ?? inner?.message ?? cause.message
}

/** A transport failure (refused, reset, DNS): the fetch error under the HttpClient's. */
const transportCause = (error: HttpClientError.HttpClientError): unknown =>
  error.reason._tag === "TransportError" && error.reason.cause !== undefined ? error.reason.cause : error

/** The request as HttpClient sends it; a string body keeps fetch's own default content-type unless the feed sets one. */
const toClientRequest = (request: HttpRequest) => {
  const base = HttpClientRequest.make(request.method)(request.url)
  const withBody =
    request.body === undefined ? base : HttpClientRequest.bodyText(base, request.body, "text/plain;charset=UTF-8")
  return HttpClientRequest.setHeaders(withBody, { "accept-encoding": "gzip", ...request.headers })
}

/** Hands an unread body back (a refused answer, an HTML page) without reading it. */
const discard = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.promise(async () => {
    await Option.getOrUndefined(HttpClientResponse.toWeb(response))
      ?.body?.cancel()
      .catch(() => {})
  })

const REDIRECTS = new Set([301, 302, 303, 307, 308])
const MAX_REDIRECTS = 10
const BODY_HEADERS = new Set(["content-type", "content-length", "content-encoding"])

/**
 * Where a redirect leads: the next request on the SAME origin (scheme, host
 * and port), or why it is refused. A feed's credentials (an auth header, an
 * {env:...} value in the body or the query) are meant for its own host; fetch
 * resends custom headers and a 307/308 body to whatever host a redirect
 * names, so another origin is refused outright rather than trusted to a list
 * of headers to strip. 303, and 301/302 after a POST, continue as a GET
 * without the body, as browsers do.
 */
const nextHop = (
  current: HttpRequest,
  status: number,
  location: string | undefined,
  origin: string
): HttpRequest | { readonly refused: string } => {
  if (location === undefined) return { refused: `a ${status} redirect without a Location header` }
  let next: URL
  try {
    next = new URL(location, current.url)
  } catch {
    return { refused: `a ${status} redirect to an unreadable Location` }
  }
  if (next.origin !== origin) {
    return {
      refused:
        `a ${status} redirect to another origin, ${next.origin}: refused, the feed's credentials are for ` +
        `${origin} only; point the feed at the final address`
    }
  }
  const asGet = status === 303 || ((status === 301 || status === 302) && current.method === "POST")
  if (!asGet) return { ...current, url: next.href }
  const headers = Object.fromEntries(
    Object.entries(current.headers).filter(([name]) => !BODY_HEADERS.has(name.toLowerCase()))
  )
  return { url: next.href, method: "GET", headers }
}

/**
 * One attempt: HttpClient (fetch underneath, content-encoding decoded), body
 * streamed to disk. Redirects are followed here, not by fetch, so that none
 * leaves the feed's origin (nextHop).
 */
const attempt = (feed: FeedDefinition, request: HttpRequest, target: string, context: RequestContext) => {
  const where = context.redact(request.url)
  const cannotFetch = (cause: unknown) =>
    fail(feed, `cannot fetch ${where}: ${context.redact(describeFetchError(cause))}`, true)
  const origin = new URL(request.url).origin
  return Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const send = (hop: HttpRequest) =>
      client.execute(toClientRequest(hop)).pipe(
        // as with fetch: no traceparent/b3 headers to a network's API, no span holding a URL with credentials
        Effect.provideService(HttpClient.TracerDisabledWhen, () => true),
        Effect.provideService(FetchHttpClient.RequestInit, { redirect: "manual" }),
        Effect.mapError((error) => cannotFetch(transportCause(error)))
      )
    let current = request
    let response = yield* send(current)
    for (let hops = 0; REDIRECTS.has(response.status); hops++) {
      yield* discard(response)
      const next = nextHop(current, response.status, response.headers["location"], origin)
      if ("refused" in next) return yield* fail(feed, `${where} answered ${context.redact(next.refused)}`)
      if (hops === MAX_REDIRECTS) return yield* fail(feed, `${where}: more than ${MAX_REDIRECTS} redirects`)
      current = next
      response = yield* send(current)
    }
    if (response.status === 304) {
      yield* discard(response)
      return { notModified: true } satisfies Downloaded
    }
    const headers = response.headers
    if (response.status < 200 || response.status > 299) {
      yield* discard(response)
      const statusText = Option.getOrUndefined(HttpClientResponse.toWeb(response))?.statusText ?? ""
      const status = `HTTP ${response.status} ${statusText} from ${where}`
      if (response.status === 401 || response.status === 403) {
        const names =
          context.credentials.length > 0
            ? ` in ${context.credentials.join(", ")} (options.auth)`
            : " (the feed sends none: set options.auth)"
        return yield* fail(
          feed,
          `${status}: the API refused the credentials${names}; check them, the run does not retry`
        )
      }
      if (response.status === 429) {
        const now = yield* Clock.currentTimeMillis
        const wait =
          retryAfterMs(headers["retry-after"] ?? null, now) ??
          rateLimitResetMs(headers["ratelimit-reset"] ?? headers["x-ratelimit-reset"] ?? null, now)
        return yield* fail(feed, `${status} (rate limited)`, true, wait)
      }
      return yield* fail(feed, status, response.status >= 500 || response.status === 408)
    }
    if (/text\/html/i.test(headers["content-type"] ?? "")) {
      yield* discard(response)
      return yield* fail(feed, `the source answered an HTML page (content-type ${headers["content-type"]}), not a feed`)
    }
    const web = Option.getOrUndefined(HttpClientResponse.toWeb(response))
    if (web !== undefined && web.body === null) return yield* fail(feed, "the source answered no body")
    const hash = createHash("sha256")
    // Streamed: a feed of a few GB never sits in memory.
    yield* Effect.tryPromise({
      try: (signal) =>
        pipeline(
          Readable.from(Stream.toAsyncIterable(response.stream), { objectMode: false }),
          hashStream(hash),
          createWriteStream(target),
          { signal }
        ),
      catch: cannotFetch
    })
    return {
      notModified: false,
      sha256: hash.digest("hex"),
      etag: headers["etag"],
      lastModified: headers["last-modified"]
    } satisfies Downloaded
  }).pipe(
    // the whole attempt, body included, as fetch's AbortSignal.timeout did
    Effect.timeoutOrElse({
      duration: Duration.millis(feed.options.timeoutMs),
      orElse: () => Effect.fail(fail(feed, `cannot fetch ${where}: timed out`, true))
    })
  )
}

/** The request with retries: `options.retries` more attempts for transient failures; 429s wait as the network asks. */
export const download = (
  feed: FeedDefinition,
  request: HttpRequest,
  target: string,
  context: RequestContext,
  retry = 0
): Effect.Effect<Downloaded, PipelineError, HttpClient.HttpClient> =>
  attempt(feed, request, target, context).pipe(
    Effect.catch((error) => {
      if (error.retryable !== true) return Effect.fail(error)
      const wait = error.retryAfterMs
      const waited = context.rateLimited ?? { waitedMs: 0, waits: 0 }
      // A wait of a second or more is the network's own appointment: it does not count as a retry
      // where the run adds its waits up (context.rateLimited), which bounds them all together.
      const appointed = wait !== undefined && wait >= 1000 && context.rateLimited !== undefined
      if (!appointed && retry >= feed.options.retries) {
        return Effect.fail(fail(feed, `${error.message}; gave up after ${retry + 1} attempts`))
      }
      if (wait !== undefined && waited.waitedMs + wait > feed.options.maxRetryAfterMs) {
        return Effect.fail(
          fail(
            feed,
            `${error.message}: the API asks to wait ${Math.ceil(wait / 1000)} s, longer than options.maxRetryAfterMs ` +
              `(${Math.ceil(feed.options.maxRetryAfterMs / 1000)} s)` +
              (waited.waitedMs > 0 ? ` with the ${Math.ceil(waited.waitedMs / 1000)} s this run already waited` : "") +
              "; the next run tries again"
          )
        )
      }
      return Effect.sleep(Duration.millis(wait ?? 200 * 2 ** retry)).pipe(
        Effect.andThen(
          Effect.sync(() => {
            if (wait === undefined) return
            waited.waitedMs += wait
            waited.waits += 1
          })
        ),
        Effect.andThen(download(feed, request, target, context, appointed ? retry : retry + 1))
      )
    })
  )
