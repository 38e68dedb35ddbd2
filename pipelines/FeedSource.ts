import { Context, Effect, Layer } from "effect"
import { FetchHttpClient, HttpClient } from "effect/http"
import { createHash } from "node:crypto"
import { createReadStream, mkdirSync, rmSync, statSync } from "node:fs"
import { open } from "node:fs/promises"
import { join } from "node:path"
import { createGunzip } from "node:zlib"
import { AppConfig } from "../infra/AppConfig.ts"
import { Database } from "../infra/Database.ts"
import { PipelineError } from "./errors.ts"
import { fetchApi } from "./ApiSource.ts"
import { type FeedDefinition, resolveLocation } from "./FeedConfig.ts"
import { isApiSource, redactLocation } from "./FeedRequest.ts"
import { download } from "./HttpFetch.ts"

// Gets a feed's bytes onto local disk and decides whether they are worth
// loading. Everything that can be wrong with a source *as a file* is caught
// here, before a parser sees it: unreachable host, HTTP errors (retried with
// exponential backoff when transient), an HTML error page served with 200, an
// empty body, a truncated gzip. An unchanged source (HTTP 304, or the same
// sha256 as the last successful run) is reported as such so the run is skipped.
// Network APIs (credentials, date window, POST, pages) go through ApiSource.ts.

export interface FetchedSource {
  readonly file: string
  readonly gzip: boolean
  readonly sha256: string
  readonly etag: string | undefined
  readonly lastModified: string | undefined
  /** Same content as the last successful run: nothing to do. */
  readonly unchanged: boolean
  /** Removes the download (no-op for local files). */
  readonly cleanup: Effect.Effect<void>
  /** What the run result should say about the fetch (an API source's waits on rate limits or its budget). */
  readonly notes?: ReadonlyArray<string>
}

export interface FeedState {
  readonly etag: string | null
  readonly last_modified: string | null
  readonly content_sha256: string | null
  /** Epoch milliseconds of the last successful run: where an API source's window reaches back to after an outage. */
  readonly last_success_ms: number | bigint | null
}

const fail = (feed: FeedDefinition, message: string, retryable = false) =>
  new PipelineError({ feed: feed.name, stage: "fetch", message, retryable })

const sha256File = (path: string) =>
  new Promise<string>((resolve, reject) => {
    const hash = createHash("sha256")
    createReadStream(path, { highWaterMark: 1 << 20 })
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")))
  })

const readHead = async (path: string, bytes: number) => {
  const handle = await open(path, "r")
  try {
    const buffer = Buffer.alloc(bytes)
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

const looksLikeHtml = (head: Buffer) =>
  /^\s*(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(head.toString("utf8"))

/**
 * Decompresses the whole file to nowhere: the only way to know a gzip is not
 * truncated before a parser half-reads it. Returns the first decompressed bytes for sniffing.
 */
const checkGzip = (path: string) =>
  new Promise<Buffer>((resolve, reject) => {
    let head = Buffer.alloc(0)
    const gunzip = createGunzip()
    gunzip.on("data", (chunk: Buffer) => {
      if (head.length < 1024) head = Buffer.concat([head, chunk]).subarray(0, 1024)
    })
    gunzip.on("end", () => resolve(head))
    gunzip.on("error", reject)
    createReadStream(path).on("error", reject).pipe(gunzip)
  })

/** Checks a file on disk: non-empty, not HTML, gzip complete. */
const inspect = (feed: FeedDefinition, path: string) =>
  Effect.gen(function* () {
    const size = yield* Effect.try({
      try: () => statSync(path).size,
      catch: (cause) => fail(feed, `cannot read ${path}: ${(cause as Error).message}`)
    })
    if (size === 0) return yield* fail(feed, "the source is empty")
    const magic = yield* Effect.promise(() => readHead(path, 1024))
    const gzip = magic[0] === 0x1f && magic[1] === 0x8b
    const head = gzip
      ? yield* Effect.tryPromise({
          try: () => checkGzip(path),
          catch: (cause) => fail(feed, `truncated or corrupt gzip: ${(cause as Error).message}`)
        })
      : magic
    if (looksLikeHtml(head))
      return yield* fail(feed, "the source is an HTML page, not a feed (an error or login page?)")
    return { gzip }
  })

export interface FeedSourceShape {
  fetch(feed: FeedDefinition, runId: string): Effect.Effect<FetchedSource, PipelineError>
}

export class FeedSource extends Context.Service<FeedSource, FeedSourceShape>()("app/pipelines/FeedSource") {
  /** Over any HttpClient (a test may hand it a stub). */
  static readonly layerWithoutClient = Layer.effect(
    FeedSource,
    Effect.gen(function* () {
      const db = yield* Database
      const config = yield* AppConfig
      const client = yield* HttpClient.HttpClient
      const downloads = join(config.dataDir, "tmp", "feeds")

      const stateOf = (feed: FeedDefinition) =>
        db
          .query<FeedState>(
            `SELECT etag, last_modified, content_sha256,
             CAST(extract(epoch FROM last_success_at) * 1000 AS DOUBLE PRECISION) AS last_success_ms
           FROM feed_state WHERE feed = $1`,
            [feed.name]
          )
          .pipe(
            Effect.map((rows) => rows[0]),
            Effect.mapError((error) => fail(feed, error.message))
          )

      const fromFile = (feed: FeedDefinition, path: string, state: FeedState | undefined) =>
        Effect.gen(function* () {
          const sha256 = yield* Effect.tryPromise({
            try: () => sha256File(path),
            catch: (cause) => fail(feed, `cannot read ${path}: ${(cause as Error).message}`)
          })
          const unchanged = state?.content_sha256 === sha256
          const { gzip } = unchanged ? { gzip: false } : yield* inspect(feed, path)
          return { file: path, gzip, sha256, etag: undefined, lastModified: undefined, unchanged, cleanup: Effect.void }
        })

      /** Where a run's download goes, and how it is removed. */
      const scratch = (feed: FeedDefinition, runId: string) => {
        mkdirSync(downloads, { recursive: true })
        const target = join(downloads, `${feed.name}-${runId}`)
        return { target, cleanup: Effect.sync(() => rmSync(target, { force: true })) }
      }

      const fromHttp = (feed: FeedDefinition, url: string, runId: string, state: FeedState | undefined) =>
        Effect.gen(function* () {
          const { target, cleanup } = scratch(feed, runId)
          const headers: Record<string, string> = { ...feed.options.headers }
          if (state?.etag) headers["if-none-match"] = state.etag
          if (state?.last_modified) headers["if-modified-since"] = state.last_modified
          const result = yield* download(feed, { url, method: "GET", headers }, target, {
            redact: redactLocation,
            credentials: []
          }).pipe(Effect.onError(() => cleanup))
          if (result.notModified) {
            yield* cleanup
            return {
              file: target,
              gzip: false,
              sha256: state?.content_sha256 ?? "",
              etag: state?.etag ?? undefined,
              lastModified: state?.last_modified ?? undefined,
              unchanged: true,
              cleanup: Effect.void
            }
          }
          const unchanged = state?.content_sha256 === result.sha256
          const { gzip } = unchanged
            ? { gzip: false }
            : yield* inspect(feed, target).pipe(Effect.onError(() => cleanup))
          return {
            file: target,
            gzip,
            sha256: result.sha256,
            etag: result.etag,
            lastModified: result.lastModified,
            unchanged,
            cleanup
          }
        })

      const fromApi = (feed: FeedDefinition, runId: string, state: FeedState | undefined) =>
        Effect.gen(function* () {
          const { target, cleanup } = scratch(feed, runId)
          const lastSuccess = state?.last_success_ms == null ? undefined : new Date(Number(state.last_success_ms))
          const { sha256, notes } = yield* fetchApi(feed, target, lastSuccess).pipe(Effect.onError(() => cleanup))
          const unchanged = state?.content_sha256 === sha256
          const { gzip } = unchanged
            ? { gzip: false }
            : yield* inspect(feed, target).pipe(Effect.onError(() => cleanup))
          return { file: target, gzip, sha256, etag: undefined, lastModified: undefined, unchanged, cleanup, notes }
        })

      return FeedSource.of({
        fetch: (feed, runId) =>
          Effect.gen(function* () {
            const state = yield* stateOf(feed)
            if (isApiSource(feed)) return yield* fromApi(feed, runId, state)
            const location = resolveLocation(feed.location)
            return location.type === "file"
              ? yield* fromFile(feed, location.path, state)
              : yield* fromHttp(feed, location.url, runId, state)
          }).pipe(Effect.provideService(HttpClient.HttpClient, client))
      })
    })
  )

  /**
   * Over the fetch-based HttpClient: fetch decodes a gzip content-encoding
   * itself, as the feeds have always been read (the undici client of
   * @effect/platform-node does not). Redirects are followed by HttpFetch,
   * on the feed's own origin only.
   */
  static readonly layer = FeedSource.layerWithoutClient.pipe(Layer.provide(FetchHttpClient.layer))
}
