import { Context, Effect, Layer, Result, Schema } from "effect"
import { validate as validCron } from "node-cron"
import { readFileSync } from "node:fs"
import { isAbsolute, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { AppConfig } from "../infra/AppConfig.ts"
import { ApiOptions, intBetween, withDefault } from "./ApiOptions.ts"
import { FeedConfigError } from "./errors.ts"
import { isApiSource, passNames, requiredEnv } from "./FeedRequest.ts"
import { type FieldIssue, fieldIssues, rule } from "./Rejections.ts"

// The feed configuration (config/feeds.json, or FEEDS_CONFIG): every source a
// pipeline reads. Validated with Schema when the service starts, so a typo stops
// the service with a message naming the feed and field instead of failing at
// 3 a.m. on the first scheduled run.

/** Which formats each feed kind accepts. A new format is one entry here plus a parser in its loader. */
export const FORMATS = {
  networks: ["networks-jsonl"],
  programs: ["programs-jsonl"],
  products: ["gmc-tsv", "gmc-xml", "awin-csv"],
  price_history: ["price-history-csv"],
  exchange_rates: ["ecb-xml"],
  conversions: [
    "awin-transactions",
    "cj-commissions",
    "impact-actions",
    "rakuten-signature-orders",
    "partnerize-conversions",
    "skimlinks-commissions",
    "ebay-transaction-detail",
    "conversions-generic"
  ]
} satisfies Record<string, Array<string>>

export type FeedKind = keyof typeof FORMATS
export const FEED_KINDS = Object.keys(FORMATS) as Array<FeedKind>

/** Repo root: relative locations in the config are relative to it, wherever the process was started. */
export const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url))

const text = Schema.String.check(Schema.isMinLength(1))
const described = <S extends Schema.Top>(schema: S, description: string) => schema.annotate({ description })

const FeedOptions = Schema.StructWithRest(
  Schema.Struct({
    rejectThreshold: withDefault(
      described(
        Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 })),
        "Fail the run when more than this share of rows is rejected (0..1)."
      ),
      0.2
    ),
    currency: Schema.optionalKey(
      described(
        Schema.String.check(
          Schema.isPattern(/^([A-Z]{3}|\{env:[A-Z_][A-Z0-9_]*\})$/u, {
            message: "must be an ISO 4217 code like USD, or {env:NAME} naming the variable that holds one"
          })
        ),
        "Currency of amounts written without one (CJ: the account's currency); {env:CJ_CURRENCY} reads it from the environment."
      )
    ),
    store: Schema.optionalKey(described(text, "Merchant display name for GMC feeds (they carry no store column).")),
    storeColumn: Schema.optionalKey(
      described(
        text,
        "A column (or XML element) naming each row's merchant, for multi-store feeds; options.store is the fallback."
      )
    ),
    country: Schema.optionalKey(
      described(
        Schema.String.check(Schema.isPattern(/^[A-Z]{2}$/u, { message: "must be an ISO 3166-1 alpha-2 code like US" })),
        "Product feeds: where the feed's products sell when a row names no shipping country (ISO 3166-1 alpha-2). Leave it out for a feed of stores in several countries: each row's store domain or programme then says."
      )
    ),
    tag: Schema.optionalKey(text),
    timeoutMs: withDefault(
      described(Schema.Int.check(Schema.isGreaterThan(0)), "HTTP sources: per-attempt timeout in milliseconds."),
      30_000
    ),
    retries: withDefault(described(intBetween(0, 10), "HTTP sources: retries with exponential backoff."), 3),
    headers: withDefault(
      described(
        Schema.Record(Schema.String, Schema.String),
        "Extra request headers for HTTP sources (e.g. an API key the network requires)."
      ),
      {}
    ),
    ...ApiOptions
  }),
  [Schema.Record(Schema.String, Schema.Unknown)]
)

const LOCATION = "must be a local path, a file:// URL or an http(s):// URL"

/** The rules across a feed's fields (they run once its fields are valid). */
const feedIssues = (feed: typeof FeedFields.Type) => {
  const issues: Array<{ path: ReadonlyArray<PropertyKey>; issue: string }> = []
  const formats: ReadonlyArray<string> = FORMATS[feed.kind]
  if (feed.options.body !== undefined && feed.options.method !== "POST") {
    issues.push({ path: ["options", "body"], issue: 'a body needs options.method "POST"' })
  }
  if (isApiSource(feed) && !/^https?:\/\//i.test(feed.location)) {
    issues.push({
      path: ["location"],
      issue: "must be an http(s):// URL for an API source (auth, window, pagination, POST, {env:...})"
    })
  }
  if (
    /\{(from|to)\}/.test(feed.location + JSON.stringify(feed.options.body ?? "")) &&
    feed.options.window === undefined
  ) {
    issues.push({ path: ["options", "window"], issue: "{from} / {to} need options.window" })
  }
  const names = passNames(feed)
  if (names.length > 0 && feed.options.passes === undefined) {
    issues.push({ path: ["options", "passes"], issue: `{pass:${names[0]}} needs options.passes` })
  }
  feed.options.passes?.forEach((pass, index) => {
    const missing = names.filter((name) => !Object.hasOwn(pass, name))
    if (missing.length > 0)
      issues.push({ path: ["options", "passes", index], issue: `must give ${missing.join(", ")}` })
  })
  if (!formats.includes(feed.format)) {
    issues.push({
      path: ["format"],
      issue: `must be one of ${formats.join(", ") || "(none registered)"} for kind ${feed.kind}`
    })
  }
  return issues.length === 0 ? undefined : issues
}

const FeedFields = Schema.Struct({
  name: described(
    Schema.String.check(
      Schema.isPattern(/^[a-z0-9][a-z0-9_-]{0,63}$/u, {
        message: "must be a slug: lower-case letters, digits, - and _"
      })
    ),
    "The feed's name (a slug): product ids are `{name}:{item id}`; runs, rejected rows and `npm run ingest -- --feed <name>` use it."
  ),
  kind: described(Schema.Literals(FEED_KINDS), "What the feed holds; decides its loader and the formats it accepts."),
  format: described(
    text,
    `The file format, one of its kind's: ${FEED_KINDS.map((kind) => `${kind}: ${FORMATS[kind].join(", ")}`).join("; ")}.`
  ),
  // described before the rule: a filter without a JSON Schema form would drop the description
  location: described(
    text,
    "A repo-relative or absolute path, a file:// URL or an http(s):// URL (API sources: http(s) only)."
  ).check(
    rule((value: string) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || /^(https?|file):\/\//i.test(value), LOCATION)
  ),
  schedule: Schema.optionalKey(
    described(
      Schema.String,
      'A cron expression (UTC), e.g. "0 */6 * * *"; without one the feed runs only on demand.'
    ).check(rule((value: string) => validCron(value), 'must be a cron expression like "0 */6 * * *"'))
  ),
  enabled: withDefault(
    described(Schema.Boolean, "A disabled feed is not scheduled and not run with the other feeds."),
    true
  ),
  options: withDefault(FeedOptions, {})
})
const Feed = FeedFields.check(Schema.makeFilter(feedIssues))

/** Every name used twice, at its second and later places (a rule across feeds, also applied when some feed is invalid). */
const duplicateNames = (feeds: ReadonlyArray<{ readonly name?: unknown }>): Array<FieldIssue> => {
  const seen = new Set<unknown>()
  const issues: Array<FieldIssue> = []
  feeds.forEach((feed, index) => {
    if (typeof feed?.name !== "string") return
    if (seen.has(feed.name))
      issues.push({ path: ["feeds", index, "name"], message: `duplicate feed name ${feed.name}` })
    seen.add(feed.name)
  })
  return issues
}

export const FeedsFile = Schema.Struct({
  $schema: Schema.optionalKey(Schema.String),
  feeds: Schema.Array(Feed)
}).check(
  Schema.makeFilter((file) => {
    const issues = duplicateNames(file.feeds).map(({ path, message }) => ({ path, issue: message }))
    return issues.length === 0 ? undefined : issues
  })
)

/** Feeds whose values are typed right (checks aside), with defaults: the cross-field rules can judge them. */
const decodeTyped = Schema.decodeUnknownResult(FeedFields, { disableChecks: true })

/**
 * The rules across fields and feeds, also where some value is invalid: a
 * Schema check on a struct runs only once all its fields are valid, and an
 * operator should see every problem of the file at once.
 */
const rulesAcross = (feeds: ReadonlyArray<unknown>): Array<FieldIssue> => {
  const issues: Array<FieldIssue> = []
  feeds.forEach((entry, index) => {
    const typed = decodeTyped(entry)
    if (Result.isFailure(typed)) return
    for (const { path, issue } of feedIssues(typed.success) ?? [])
      issues.push({ path: ["feeds", index, ...path], message: issue })
  })
  return [...issues, ...duplicateNames(feeds as ReadonlyArray<{ readonly name?: unknown }>)]
}

/** Unknown keys are errors (a typo is never silently ignored), except in `options`, which keeps them. */
const decodeFeedsFile = Schema.decodeUnknownResult(FeedsFile, { errors: "all", onExcessProperty: "error" })

export type FeedDefinition = typeof Feed.Type
export type FeedOptions = typeof FeedOptions.Type

/** Where a location points: a local file (absolute path) or an http(s) URL. */
export const resolveLocation = (
  location: string
):
  | { readonly type: "file"; readonly path: string }
  | {
      readonly type: "http"
      readonly url: string
    } => {
  if (/^https?:\/\//i.test(location)) return { type: "http", url: location }
  if (/^file:\/\//i.test(location)) return { type: "file", path: fileURLToPath(location) }
  return { type: "file", path: isAbsolute(location) ? location : resolve(REPO_ROOT, location) }
}

/** Parses a feeds file's text; errors read `feeds[2] (awin-uk).format: must be one of ...`. */
export const parseFeedsConfig = (
  text: string,
  source: string
): Effect.Effect<ReadonlyArray<FeedDefinition>, FeedConfigError> =>
  Effect.gen(function* () {
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (cause) {
      return yield* new FeedConfigError({ message: `${source}: not valid JSON: ${(cause as Error).message}` })
    }
    const parsed = decodeFeedsFile(json)
    if (Result.isSuccess(parsed)) return parsed.success.feeds
    const raw = json as { feeds?: Array<{ name?: unknown }> }
    const issues = fieldIssues(parsed.failure.issue)
    for (const extra of Array.isArray(raw.feeds) ? rulesAcross(raw.feeds) : []) {
      if (!issues.some((issue) => issue.message === extra.message && issue.path.join(".") === extra.path.join(".")))
        issues.push(extra)
    }
    const feedIndex = (issue: FieldIssue) =>
      issue.path[0] === "feeds" && typeof issue.path[1] === "number" ? issue.path[1] : Infinity
    const lines = issues
      .sort((a, b) => feedIndex(a) - feedIndex(b))
      .map((issue) => {
        const [first, index, ...rest] = issue.path
        if (first === "feeds" && typeof index === "number") {
          const name = raw.feeds?.[index]?.name
          const label = typeof name === "string" ? `feed "${name}"` : `feeds[${index}]`
          return `${label} field ${rest.join(".") || "(entry)"}: ${issue.message}`
        }
        return `${issue.path.join(".") || "(root)"}: ${issue.message}`
      })
    return yield* new FeedConfigError({ message: `invalid feed configuration ${source}: ${lines.join("; ")}` })
  })

export const loadFeedsConfig = (path: string) =>
  Effect.try({
    try: () => readFileSync(path, "utf8"),
    catch: (cause) =>
      new FeedConfigError({ message: `cannot read feed configuration ${path}: ${(cause as Error).message}` })
  }).pipe(Effect.flatMap((text) => parseFeedsConfig(text, path)))

/** Feeds with `enabled: false` where a variable they name is unset, and which enabled feeds wait for what. */
export const gateOnEnv = (
  feeds: ReadonlyArray<FeedDefinition>,
  env: Readonly<Record<string, string | undefined>> = process.env
) => {
  const waiting: Array<{ feed: string; missing: Array<string> }> = []
  const gated = feeds.map((feed) => {
    const missing = requiredEnv(feed).filter((name) => !env[name])
    if (missing.length === 0) return feed
    if (feed.enabled) waiting.push({ feed: feed.name, missing })
    return { ...feed, enabled: false }
  })
  return { feeds: gated, waiting }
}

export class FeedsConfig extends Context.Service<
  FeedsConfig,
  {
    readonly feeds: ReadonlyArray<FeedDefinition>
    get(name: string): FeedDefinition | undefined
  }
>()("app/pipelines/FeedsConfig") {
  static readonly fromFeeds = (feeds: ReadonlyArray<FeedDefinition>) =>
    FeedsConfig.of({ feeds, get: (name) => feeds.find((feed) => feed.name === name) })

  /**
   * Reads FEEDS_CONFIG at start-up; an invalid file fails the layer, which stops the service.
   * A feed that names environment variables (options.auth, `{env:NAME}`) is
   * disabled while any of them is unset, so the ready-made network feeds stay
   * off until an operator provides credentials; the log names what is missing.
   */
  static readonly layer = Layer.effect(
    FeedsConfig,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const { feeds, waiting } = gateOnEnv(yield* loadFeedsConfig(config.feedsConfigPath))
      for (const { feed, missing } of waiting) {
        yield* Effect.logWarning("feed disabled until its environment variables are set").pipe(
          Effect.annotateLogs({ feed, missing: missing.join(", ") })
        )
      }
      return FeedsConfig.fromFeeds(feeds)
    })
  )

  static readonly layerWith = (feeds: ReadonlyArray<FeedDefinition>) =>
    Layer.succeed(FeedsConfig, FeedsConfig.fromFeeds(feeds))
}

/** config/feeds.schema.json, for editors; test/pipelines/feedConfig.test.ts keeps the committed copy current. */
export const feedsJsonSchema = () => {
  const document = Schema.toJsonSchemaDocument(FeedsFile, { onExcessProperty: "error" })
  // The JSON Schema draft ("dialect" in JSON Schema's words), not a store's.
  const { dialect: jsonSchemaDraft } = document
  const schema =
    Object.keys(document.definitions).length === 0
      ? document.schema
      : { ...document.schema, $defs: document.definitions }
  return (
    JSON.stringify(
      {
        $schema: jsonSchemaDraft === "draft-2020-12" ? "https://json-schema.org/draft/2020-12/schema" : undefined,
        ...schema
      },
      null,
      2
    ) + "\n"
  )
}

/** A feed definition from a partial one, with defaults applied (tests, benchmarks). */
export const feedDefinition = (input: typeof Feed.Encoded): FeedDefinition =>
  Schema.decodeUnknownSync(Feed)(input, { onExcessProperty: "error" })
