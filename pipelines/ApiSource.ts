import { Clock, Effect } from "effect"
import { createHash } from "node:crypto"
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { PipelineError } from "./errors.ts"
import type { FeedPagination } from "./ApiOptions.ts"
import type { FeedDefinition } from "./FeedConfig.ts"
import {
  authHeaders,
  credentialNames,
  type Fill,
  fillBody,
  fillLocation,
  formatInstant,
  readEnv,
  redactor,
  windowBounds
} from "./FeedRequest.ts"
import { download, type HttpRequest, type RequestContext } from "./HttpFetch.ts"

// A feed whose source is a network's API: credentials from the environment,
// a date window, GET or POST with a body, and pages. The pages are combined
// into ONE report in the network's own shape (the first page, with the list
// at `pagination.items` replaced by every page's items in order), so the
// existing report loaders and their field mappings read it unchanged and a
// rejected row's line is its position in the whole report. Numbers are kept
// as their source text through the combination (money never becomes a float).
//
// Unchanged-source skip: conditional requests (ETag) are not used here, since
// an ETag names one URL and the window moves every run. The sha256 decides
// instead: of the response for a single request, of the combined records for
// pages (page metadata such as Impact's @nextpageuri repeats the window, so it
// would change every run). The same records in the same states as the last
// successful run means nothing to load, whatever the window.

// Designed against the networks' documented APIs (the ready-made feeds in config/feeds.json):
// - Awin publisher API, "Get List of Transactions": GET /publishers/{publisherId}/transactions/ with
//   startDate/endDate (yyyy-MM-ddThh:mm:ss, at most 31 days apart) and timezone, bearer token; one
//   JSON array, no paging (help.awin.com/apidocs/returns-a-list-of-transactions-for-a-given-publisher).
// - CJ Commission Detail API: GraphQL POST with a personal access token; publisherCommissions
//   answers payloadComplete and maxCommissionId, the next call passes sinceCommissionId (developers.cj.com).
// - Impact partner API: GET /Mediapartners/{AccountSID}/Actions, basic auth (Account SID, Auth Token),
//   Accept: application/json, StartDate/EndDate at most 45 days apart; pages linked by @nextpageuri
//   (integrations.impact.com, Actions and "Pagination").

export interface FetchedApi {
  readonly sha256: string
  readonly pages: number
}

type Json = unknown

// JSON.rawJSON (Node 21+) is not in TypeScript's lib yet.
const json: { readonly parse: typeof JSON.parse; readonly rawJSON?: (text: string) => unknown } = JSON

/** JSON.parse keeping every number's source text (JSON.rawJSON), so re-serialising changes no amount. */
const parseKeepingNumbers = (text: string): Json =>
  json.parse(text, ((_key: string, value: unknown, context?: { source?: string }) =>
    typeof value === "number" && context?.source !== undefined && json.rawJSON !== undefined
      ? json.rawJSON(context.source)
      : value) as (key: string, value: unknown) => unknown)

const at = (json: Json, path: string): unknown =>
  path === ""
    ? json
    : path
        .split(".")
        .reduce<unknown>(
          (node, key) =>
            typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined,
          json
        )

const setAt = (json: Json, path: string, value: unknown): Json => {
  if (path === "") return value
  const keys = path.split(".")
  const parent = at(json, keys.slice(0, -1).join(".")) as Record<string, unknown>
  parent[keys[keys.length - 1]] = value
  return json
}

/** A scalar read from a page (a number arrives as a raw JSON wrapper). */
const scalar = (value: unknown): string | undefined => {
  if (typeof value === "object" && value !== null && "rawJSON" in value)
    return String((value as { rawJSON: string }).rawJSON)
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined
}

/** The request after `page`, or undefined when it was the last. */
const nextPage = (
  feed: FeedDefinition,
  pagination: FeedPagination,
  page: { readonly json: Json; readonly list: ReadonlyArray<unknown>; readonly url: string },
  fill: Fill
): { readonly url: string; readonly fill: Fill } | undefined => {
  switch (pagination.type) {
    case "next-uri": {
      const uri = scalar(at(page.json, pagination.next))
      return uri === undefined || uri === "" ? undefined : { url: new URL(uri, page.url).href, fill }
    }
    case "cursor": {
      const cursor = scalar(at(page.json, pagination.cursor))
      const done = pagination.done !== undefined && at(page.json, pagination.done) === true
      if (done || cursor === undefined || cursor === "" || cursor === fill.cursor) return undefined
      const next = { ...fill, cursor }
      return { url: fillLocation(feed.location, next), fill: next }
    }
    case "page": {
      if (page.list.length < pagination.size) return undefined
      const next = { ...fill, page: fill.page! + 1, offset: fill.offset! + pagination.size }
      return { url: fillLocation(feed.location, next), fill: next }
    }
  }
}

export const fetchApi = (feed: FeedDefinition, target: string, lastSuccessAt: Date | undefined) =>
  Effect.gen(function* () {
    const fail = (message: string, stage: "fetch" | "parse" = "fetch") =>
      new PipelineError({ feed: feed.name, stage, message })
    const { values, missing } = readEnv(feed)
    if (missing.length > 0) {
      return yield* fail(
        `environment variable${missing.length > 1 ? "s" : ""} ${missing.join(", ")} not set (named by options.auth or {env:...}); ` +
          "the feed stays disabled until they are"
      )
    }
    const context: RequestContext = {
      redact: redactor(Object.values(values)),
      credentials: credentialNames(feed.options.auth)
    }
    const { options } = feed
    const window =
      options.window === undefined
        ? undefined
        : windowBounds(options.window, new Date(yield* Clock.currentTimeMillis), lastSuccessAt)
    const pagination = options.pagination
    let fill: Fill = {
      env: values,
      from: window && formatInstant(window.from, options.window!.format),
      to: window && formatInstant(window.to, options.window!.format),
      ...(pagination?.type === "page" ? { page: pagination.start, offset: 0, size: pagination.size } : {})
    }
    const headers = {
      ...(pagination !== undefined ? { accept: "application/json" } : {}),
      ...(options.method === "POST" ? { "content-type": "application/json" } : {}),
      ...options.headers,
      ...authHeaders(options.auth, values)
    }
    const request = (url: string): HttpRequest => ({
      url,
      method: options.method,
      headers,
      body: options.method === "POST" ? JSON.stringify(fillBody(options.body ?? {}, fill)) : undefined
    })
    const first = fillLocation(feed.location, fill)
    const logged = {
      feed: feed.name,
      location: context.redact(first),
      ...(window ? { from: fill.from, to: fill.to } : {})
    }

    if (pagination === undefined) {
      const result = yield* download(feed, request(first), target, context)
      if (result.notModified) return yield* fail("the API answered 304 to a request without a condition")
      yield* Effect.logInfo("api source fetched").pipe(
        Effect.annotateLogs({ event: "api_fetched", ...logged, pages: 1 })
      )
      return { sha256: result.sha256, pages: 1 } satisfies FetchedApi
    }

    const pageFile = `${target}.page`
    const items: Array<unknown> = []
    let report: Json = undefined
    let url = first
    let pages = 0
    for (;;) {
      pages += 1
      const text = yield* download(feed, request(url), pageFile, context).pipe(
        Effect.andThen(Effect.sync(() => readFileSync(pageFile, "utf8"))),
        Effect.ensuring(Effect.sync(() => rmSync(pageFile, { force: true })))
      )
      const where = `page ${pages} (${context.redact(url)})`
      let json: Json
      try {
        json = parseKeepingNumbers(text)
      } catch (cause) {
        return yield* fail(`${where}: not JSON (${(cause as Error).message})`, "parse")
      }
      const list = at(json, pagination.items)
      if (!Array.isArray(list))
        return yield* fail(`${where}: expected an array at ${pagination.items || "the top level"}`, "parse")
      report ??= json
      items.push(...list)

      const next = nextPage(feed, pagination, { json, list, url }, fill)
      if (next === undefined) break
      if (pages >= pagination.maxPages) {
        return yield* fail(
          `the report has more than options.pagination.maxPages (${pagination.maxPages}) pages; ` +
            "raise it or shorten options.window (nothing was loaded)"
        )
      }
      // The credentials go with every page: never to another host than the configured one.
      if (new URL(next.url).origin !== new URL(first).origin) {
        return yield* fail(
          `${where}: the next page points to another host (${context.redact(new URL(next.url).origin)}); ` +
            "refusing to send credentials there"
        )
      }
      url = next.url
      fill = next.fill
    }

    writeFileSync(target, JSON.stringify(setAt(report, pagination.items, items)))
    yield* Effect.logInfo("api source fetched").pipe(
      Effect.annotateLogs({ event: "api_fetched", ...logged, pages, items: items.length })
    )
    return { sha256: createHash("sha256").update(JSON.stringify(items)).digest("hex"), pages } satisfies FetchedApi
  })
