import { Effect, Schema } from "effect"

// Feed options for sources that are network APIs rather than files: the
// credentials (named environment variables, never values), the date window,
// the request method and body, and the pagination pattern. Kept apart from
// FeedConfig.ts so the plain-file options stay readable.

/** A key with a default applied when decoding (and shown to editors in config/feeds.schema.json). */
export const withDefault = <S extends Schema.Top>(schema: S, value: S["Encoded"]) =>
  Schema.withDecodingDefaultKey<S["Rebuild"]>(Effect.succeed(value))(schema.annotate({ default: value }))
/** An integer between `minimum` and `maximum` (inclusive). */
export const intBetween = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))

const envName = Schema.String.check(
  Schema.isPattern(/^[A-Z_][A-Z0-9_]*$/u, { message: "must be an environment variable name like AWIN_TOKEN" })
)

/** Credentials, read from the environment at each run; config/feeds.json only names the variables. */
export const FeedAuth = Schema.Union([
  Schema.Struct({ type: Schema.Literal("bearer"), env: envName }).annotate({
    description: "`Authorization: Bearer <$env>` (Awin, CJ personal access tokens)."
  }),
  Schema.Struct({ type: Schema.Literal("basic"), userEnv: envName, passwordEnv: envName }).annotate({
    description: "`Authorization: Basic base64(<$userEnv>:<$passwordEnv>)` (Impact: Account SID and Auth Token)."
  }),
  Schema.Struct({
    type: Schema.Literal("header"),
    header: Schema.String.check(Schema.isPattern(/^[A-Za-z0-9-]+$/u, { message: "must be an HTTP header name" })),
    env: envName
  }).annotate({ description: "`<header>: <$env>` (an API key header, e.g. X-Api-Key)." })
]).annotate({
  description: "Credentials, read from the environment at each run; config/feeds.json only names the variables."
})

/** How `{from}` and `{to}` are written: the network's own date format. */
export const WINDOW_FORMATS = ["date", "datetime", "datetime-utc", "unix", "unix-ms"] as const

export const FeedWindow = Schema.Struct({
  days: intBetween(1, 366).annotate({
    description:
      "The window ends now and starts this many days back; consecutive runs overlap by days minus the schedule interval."
  }),
  maxDays: Schema.optionalKey(
    intBetween(1, 366).annotate({
      description:
        "When the last successful run is older than the window's start (an outage), the window reaches back to it " +
        "(less one day), at most this many days: the network's own limit on a range (Awin 31, Impact 45). Defaults to `days`."
    })
  ),
  format: withDefault(
    Schema.Literals(WINDOW_FORMATS).annotate({
      description:
        "date: 2026-11-24; datetime: 2026-11-24T09:30:00 (UTC, no zone: Awin with timezone=UTC); " +
        "datetime-utc: 2026-11-24T09:30:00Z (CJ, Impact); unix / unix-ms: epoch seconds / milliseconds."
    }),
    "datetime-utc"
  )
}).annotate({ description: "Fills `{from}` / `{to}` in the location and body." })

/** Dotted path into a JSON page; "" is the page itself (a bare array). */
const jsonPath = Schema.String.check(
  Schema.isPattern(/^(@?[A-Za-z0-9_]+(\.@?[A-Za-z0-9_]+)*)?$/u, {
    message: "must be a dotted path like data.publisherCommissions.records"
  })
)

const pageCap = { maxPages: withDefault(intBetween(1, 1000), 50) }

export const FeedPagination = Schema.Union([
  Schema.Struct({ type: Schema.Literal("next-uri"), items: jsonPath, next: jsonPath, ...pageCap }).annotate({
    description:
      "The page names the next page's URI (Impact's `@nextpageuri`, relative or absolute); an empty or absent value ends."
  }),
  Schema.Struct({
    type: Schema.Literal("cursor"),
    items: jsonPath,
    cursor: jsonPath,
    done: Schema.optionalKey(jsonPath),
    ...pageCap
  }).annotate({
    description:
      "A cursor from the page fills `{cursor}` in the location or body of the next request (CJ: maxCommissionId into " +
      "sinceCommissionId); ends when `done` is true (CJ's payloadComplete), or the cursor is absent or repeats."
  }),
  Schema.Struct({
    type: Schema.Literal("page"),
    items: jsonPath,
    size: intBetween(1, 100_000),
    start: withDefault(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)), 1),
    ...pageCap
  }).annotate({
    description:
      "`{page}` (from `start`) and `{offset}` (0, size, 2*size...) with `{size}`; a page with fewer than `size` items is the last."
  })
])

/** Placeholder values of one pass over the window (`{pass:NAME}`): the same window read by another date field. */
const passValue = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9_.-]{1,64}$/u, { message: "must be a word like validation or LockingDate" })
)

export const FeedPasses = Schema.Array(Schema.Record(Schema.String, passValue))
  .check(Schema.isMinLength(1), Schema.isMaxLength(5))
  .annotate({
    description:
      "Reads the window once per pass, each filling `{pass:NAME}` with its own values, and loads the items of every " +
      "pass as one report (an item repeated across passes is kept once). For networks whose status changes are found " +
      "by another date than the transaction's: Awin dateType transaction/validation/amendment, CJ posting and " +
      "locking date, Impact last-update and locking date."
  })

export const FeedBudget = Schema.Struct({
  requestsPerHour: intBetween(1, 100_000).annotate({
    description:
      "The network's request allowance for this account (Impact 1,000 per hour). A run that would exceed it waits " +
      "for the oldest request of the hour to age out (up to options.maxRetryAfterMs), or stops and the next run reads the window again."
  })
}).annotate({ description: "The network's request allowance, honoured by the source across runs of this process." })

export const ApiOptions = {
  /** Credentials from the environment (see FeedAuth). */
  auth: Schema.optionalKey(FeedAuth),
  /** Fills `{from}` / `{to}` in the location and body. */
  window: Schema.optionalKey(FeedWindow),
  method: withDefault(Schema.Literals(["GET", "POST"]), "GET"),
  /** POST body: JSON whose strings may hold placeholders; a string that is only `{cursor}` is null before the first cursor. */
  body: Schema.optionalKey(
    Schema.Unknown.annotate({
      description:
        "POST body: JSON whose strings may hold placeholders; a string that is only `{cursor}` is null before the first cursor."
    })
  ),
  pagination: Schema.optionalKey(FeedPagination),
  passes: Schema.optionalKey(FeedPasses),
  budget: Schema.optionalKey(FeedBudget),
  /** Longest a run waits on a 429 (Retry-After or X-RateLimit-Reset) or for its budget; longer fails the run and the next scheduled run tries again. */
  maxRetryAfterMs: withDefault(
    intBetween(0, 3_600_000).annotate({
      description:
        "Longest a run waits in all on 429s (Retry-After, or X-RateLimit-Reset when there is none) and for its " +
        "request budget; a longer wait fails the run and the next scheduled run tries again."
    }),
    60_000
  )
}

export type FeedAuth = typeof FeedAuth.Type
export type FeedWindow = typeof FeedWindow.Type
export type FeedPagination = typeof FeedPagination.Type
export type FeedPasses = typeof FeedPasses.Type
export type FeedBudget = typeof FeedBudget.Type
