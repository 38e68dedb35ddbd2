import { Clock, Duration, Effect } from "effect"
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
  /** What the run should say about the fetch (waits on rate limits or the request budget). */
  readonly notes: ReadonlyArray<string>
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

const HOUR = 3_600_000

/**
 * Request times per feed over the last hour, for options.budget: the
 * allowance is the network account's, so it spans this process's runs.
 */
const spentRequests = new Map<string, Array<number>>()

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
    const rateLimited = { waitedMs: 0, waits: 0 }
    const context: RequestContext = {
      redact: redactor(Object.values(values)),
      credentials: credentialNames(feed.options.auth),
      rateLimited
    }
    const { options } = feed
    const window =
      options.window === undefined
        ? undefined
        : windowBounds(options.window, new Date(yield* Clock.currentTimeMillis), lastSuccessAt)
    const pagination = options.pagination
    const headers = {
      ...(pagination !== undefined || options.passes !== undefined ? { accept: "application/json" } : {}),
      ...(options.method === "POST" ? { "content-type": "application/json" } : {}),
      ...options.headers,
      ...authHeaders(options.auth, values)
    }
    const request = (url: string, fill: Fill): HttpRequest => ({
      url,
      method: options.method,
      headers,
      body: options.method === "POST" ? JSON.stringify(fillBody(options.body ?? {}, fill)) : undefined
    })

    let budgetWaitMs = 0
    /** Takes one request from options.budget, waiting for the hour's oldest to age out when it is spent. */
    const spend = Effect.gen(function* () {
      const budget = options.budget
      if (budget === undefined) return
      let now = yield* Clock.currentTimeMillis
      const times = (spentRequests.get(feed.name) ?? []).filter((at) => at > now - HOUR)
      if (times.length >= budget.requestsPerHour) {
        const wait = times[times.length - budget.requestsPerHour] + HOUR - now
        if (rateLimited.waitedMs + budgetWaitMs + wait > options.maxRetryAfterMs) {
          return yield* fail(
            `the request budget (options.budget: ${budget.requestsPerHour} per hour) is spent for another ` +
              `${Math.ceil(wait / 1000)} s, longer than options.maxRetryAfterMs allows; nothing was loaded, ` +
              "the next run reads the window again"
          )
        }
        yield* Effect.sleep(Duration.millis(wait))
        budgetWaitMs += wait
        now = yield* Clock.currentTimeMillis
      }
      times.push(now)
      spentRequests.set(feed.name, times)
    })

    const baseFill: Fill = {
      env: values,
      from: window && formatInstant(window.from, options.window!.format),
      to: window && formatInstant(window.to, options.window!.format)
    }
    const firstOf = (pass: Fill["pass"]): Fill => ({
      ...baseFill,
      pass,
      ...(pagination?.type === "page" ? { page: pagination.start, offset: 0, size: pagination.size } : {})
    })
    const passes = options.passes ?? [undefined]
    const logged = {
      feed: feed.name,
      location: context.redact(fillLocation(feed.location, firstOf(passes[0]))),
      ...(window ? { from: baseFill.from, to: baseFill.to } : {})
    }
    const notes = () => [
      ...(rateLimited.waits > 0
        ? [
            `waited ${Math.ceil(rateLimited.waitedMs / 1000)} s on the API's rate limit (${rateLimited.waits} × HTTP 429)`
          ]
        : []),
      ...(budgetWaitMs > 0
        ? [
            `waited ${Math.ceil(budgetWaitMs / 1000)} s for the request budget (${options.budget!.requestsPerHour} per hour)`
          ]
        : [])
    ]

    // One plain request: the response is the report, streamed to disk unread.
    if (pagination === undefined && options.passes === undefined) {
      yield* spend
      const result = yield* download(feed, request(fillLocation(feed.location, baseFill), baseFill), target, context)
      if (result.notModified) return yield* fail("the API answered 304 to a request without a condition")
      yield* Effect.logInfo("api source fetched").pipe(
        Effect.annotateLogs({ event: "api_fetched", ...logged, pages: 1 })
      )
      return { sha256: result.sha256, pages: 1, notes: notes() } satisfies FetchedApi
    }

    // Pages, passes or both: every page is read and its items combined into one report.
    const itemsPath = pagination?.items ?? ""
    const pageFile = `${target}.page`
    const items: Array<unknown> = []
    const seen = new Set<string>()
    let report: Json = undefined
    let pages = 0
    for (const pass of passes) {
      let fill = firstOf(pass)
      const first = fillLocation(feed.location, fill)
      let url = first
      let passPages = 0
      for (;;) {
        pages += 1
        passPages += 1
        yield* spend
        const text = yield* download(feed, request(url, fill), pageFile, context).pipe(
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
        const list = at(json, itemsPath)
        if (!Array.isArray(list))
          return yield* fail(`${where}: expected an array at ${itemsPath || "the top level"}`, "parse")
        report ??= json
        for (const item of list) {
          // The same transaction found by two passes (changed in both windows) is one item of the report.
          const key = JSON.stringify(item)
          if (options.passes !== undefined && seen.has(key)) continue
          seen.add(key)
          items.push(item)
        }

        const next = pagination === undefined ? undefined : nextPage(feed, pagination, { json, list, url }, fill)
        if (next === undefined) break
        if (passPages >= pagination!.maxPages) {
          return yield* fail(
            `the report has more than options.pagination.maxPages (${pagination!.maxPages}) pages; ` +
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
    }

    writeFileSync(target, JSON.stringify(setAt(report, itemsPath, items)))
    yield* Effect.logInfo("api source fetched").pipe(
      Effect.annotateLogs({ event: "api_fetched", ...logged, pages, items: items.length, notes: notes().join("; ") })
    )
    return {
      sha256: createHash("sha256").update(JSON.stringify(items)).digest("hex"),
      pages,
      notes: notes()
    } satisfies FetchedApi
  })
