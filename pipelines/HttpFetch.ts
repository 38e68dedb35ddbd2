import { Duration, Effect } from "effect"
import { createHash } from "node:crypto"
import { createWriteStream } from "node:fs"
import { Readable, Transform } from "node:stream"
import { pipeline } from "node:stream/promises"
import { PipelineError } from "./errors.ts"
import type { FeedDefinition } from "./FeedConfig.ts"

// One HTTP request of a feed, body streamed to disk and hashed on the way,
// and the retry policy around it: transient failures (network, 5xx, 408)
// back off exponentially, a 429 waits what its Retry-After asks (up to
// options.maxRetryAfterMs), 401/403 fail at once naming the credential
// variables. Every URL in a message goes through `redact` first.

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
}

export type Downloaded =
  | { readonly notModified: true }
  | { readonly notModified: false; readonly sha256: string; readonly etag: string | undefined; readonly lastModified: string | undefined }

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

const describeFetchError = (cause: unknown): string => {
  if (!(cause instanceof Error)) return String(cause)
  if (cause.name === "TimeoutError") return "timed out"
  const inner = (cause as { cause?: { code?: string; message?: string } }).cause
  return inner?.code ?? inner?.message ?? cause.message
}

/** One attempt. */
const attempt = (feed: FeedDefinition, request: HttpRequest, target: string, context: RequestContext) =>
  Effect.tryPromise({
    try: async (signal): Promise<Downloaded> => {
      const where = context.redact(request.url)
      const response = await fetch(request.url, {
        method: request.method,
        headers: { "accept-encoding": "gzip", ...request.headers },
        body: request.body,
        redirect: "follow",
        signal: AbortSignal.any([signal, AbortSignal.timeout(feed.options.timeoutMs)])
      })
      if (response.status === 304) return { notModified: true }
      if (!response.ok) {
        await response.body?.cancel()
        const status = `HTTP ${response.status} ${response.statusText} from ${where}`
        if (response.status === 401 || response.status === 403) {
          const names = context.credentials.length > 0 ? ` in ${context.credentials.join(", ")} (options.auth)` : " (the feed sends none: set options.auth)"
          throw fail(feed, `${status}: the API refused the credentials${names}; check them, the run does not retry`)
        }
        if (response.status === 429) {
          throw fail(feed, `${status} (rate limited)`, true, retryAfterMs(response.headers.get("retry-after")))
        }
        throw fail(feed, status, response.status >= 500 || response.status === 408)
      }
      if (/text\/html/i.test(response.headers.get("content-type") ?? "")) {
        await response.body?.cancel()
        throw fail(feed, `the source answered an HTML page (content-type ${response.headers.get("content-type")}), not a feed`)
      }
      if (response.body === null) throw fail(feed, "the source answered no body")
      const hash = createHash("sha256")
      await pipeline(Readable.fromWeb(response.body as never), hashStream(hash), createWriteStream(target))
      return {
        notModified: false,
        sha256: hash.digest("hex"),
        etag: response.headers.get("etag") ?? undefined,
        lastModified: response.headers.get("last-modified") ?? undefined
      }
    },
    catch: (cause) =>
      cause instanceof PipelineError
        ? cause
        : fail(feed, `cannot fetch ${context.redact(request.url)}: ${context.redact(describeFetchError(cause))}`, true)
  })

/** The request with retries: `options.retries` more attempts for transient failures and 429s. */
export const download = (
  feed: FeedDefinition,
  request: HttpRequest,
  target: string,
  context: RequestContext,
  retry = 0
): Effect.Effect<Downloaded, PipelineError> =>
  attempt(feed, request, target, context).pipe(
    Effect.catch((error) => {
      if (error.retryable !== true) return Effect.fail(error)
      if (retry >= feed.options.retries) {
        return Effect.fail(fail(feed, `${error.message}; gave up after ${retry + 1} attempts`))
      }
      const wait = error.retryAfterMs
      if (wait !== undefined && wait > feed.options.maxRetryAfterMs) {
        return Effect.fail(fail(
          feed,
          `${error.message}: the API asks to wait ${Math.ceil(wait / 1000)} s, longer than options.maxRetryAfterMs ` +
            `(${Math.ceil(feed.options.maxRetryAfterMs / 1000)} s); the next run tries again`
        ))
      }
      return Effect.sleep(Duration.millis(wait ?? 200 * 2 ** retry)).pipe(
        Effect.andThen(download(feed, request, target, context, retry + 1))
      )
    })
  )
