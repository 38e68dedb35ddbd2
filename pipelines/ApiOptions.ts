import { z } from "zod"

// Feed options for sources that are network APIs rather than files: the
// credentials (named environment variables, never values), the date window,
// the request method and body, and the pagination pattern. Kept apart from
// FeedConfig.ts so the plain-file options stay readable.

const envName = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, "must be an environment variable name like AWIN_TOKEN")

/** Credentials, read from the environment at each run; config/feeds.json only names the variables. */
export const FeedAuth = z.discriminatedUnion("type", [
  /** `Authorization: Bearer <$env>` (Awin, CJ personal access tokens). */
  z.object({ type: z.literal("bearer"), env: envName }).strict(),
  /** `Authorization: Basic base64(<$userEnv>:<$passwordEnv>)` (Impact: Account SID and Auth Token). */
  z.object({ type: z.literal("basic"), userEnv: envName, passwordEnv: envName }).strict(),
  /** `<header>: <$env>` (an API key header, e.g. X-Api-Key). */
  z.object({ type: z.literal("header"), header: z.string().regex(/^[A-Za-z0-9-]+$/, "must be an HTTP header name"), env: envName }).strict()
])

/** How `{from}` and `{to}` are written: the network's own date format. */
export const WINDOW_FORMATS = ["date", "datetime", "datetime-utc", "unix", "unix-ms"] as const

export const FeedWindow = z.object({
  /** The window ends now and starts this many days back; consecutive runs overlap by days minus the schedule interval. */
  days: z.number().int().min(1).max(366),
  /**
   * When the last successful run is older than the window's start (an outage),
   * the window reaches back to it (less one day), at most this many days: the
   * network's own limit on a range (Awin 31, Impact 45). Defaults to `days`.
   */
  maxDays: z.number().int().min(1).max(366).optional(),
  /**
   * date: 2026-11-24; datetime: 2026-11-24T09:30:00 (UTC, no zone: Awin with timezone=UTC);
   * datetime-utc: 2026-11-24T09:30:00Z (CJ, Impact); unix / unix-ms: epoch seconds / milliseconds.
   */
  format: z.enum(WINDOW_FORMATS).default("datetime-utc")
}).strict()

/** Dotted path into a JSON page; "" is the page itself (a bare array). */
const jsonPath = z.string().regex(/^(@?[A-Za-z0-9_]+(\.@?[A-Za-z0-9_]+)*)?$/, "must be a dotted path like data.publisherCommissions.records")

const pageCap = { maxPages: z.number().int().min(1).max(1000).default(50) }

export const FeedPagination = z.discriminatedUnion("type", [
  /** The page names the next page's URI (Impact's `@nextpageuri`, relative or absolute); an empty or absent value ends. */
  z.object({ type: z.literal("next-uri"), items: jsonPath, next: jsonPath, ...pageCap }).strict(),
  /**
   * A cursor from the page fills `{cursor}` in the location or body of the next
   * request (CJ: maxCommissionId into sinceCommissionId); ends when `done` is
   * true (CJ's payloadComplete), or the cursor is absent or repeats.
   */
  z.object({ type: z.literal("cursor"), items: jsonPath, cursor: jsonPath, done: jsonPath.optional(), ...pageCap }).strict(),
  /**
   * `{page}` (from `start`) and `{offset}` (0, size, 2*size...) with `{size}`;
   * a page with fewer than `size` items is the last.
   */
  z.object({ type: z.literal("page"), items: jsonPath, size: z.number().int().min(1).max(100_000), start: z.number().int().min(0).default(1), ...pageCap }).strict()
])

export const ApiOptions = {
  /** Credentials from the environment (see FeedAuth). */
  auth: FeedAuth.optional(),
  /** Fills `{from}` / `{to}` in the location and body. */
  window: FeedWindow.optional(),
  method: z.enum(["GET", "POST"]).default("GET"),
  /** POST body: JSON whose strings may hold placeholders; a string that is only `{cursor}` is null before the first cursor. */
  body: z.unknown().optional(),
  pagination: FeedPagination.optional(),
  /** Longest Retry-After (429) a run waits for; a longer one fails the run and the next scheduled run tries again. */
  maxRetryAfterMs: z.number().int().min(0).max(600_000).default(60_000)
}

export type FeedAuth = z.infer<typeof FeedAuth>
export type FeedWindow = z.infer<typeof FeedWindow>
export type FeedPagination = z.infer<typeof FeedPagination>
