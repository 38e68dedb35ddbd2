import { Context, Effect, Layer } from "effect"
import { validate as validCron } from "node-cron"
import { readFileSync } from "node:fs"
import { isAbsolute, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { z } from "zod"
import { AppConfig } from "../infra/AppConfig.ts"
import { ApiOptions } from "./ApiOptions.ts"
import { FeedConfigError } from "./errors.ts"
import { isApiSource, requiredEnv } from "./FeedRequest.ts"

// The feed configuration (config/feeds.json, or FEEDS_CONFIG): every source a
// pipeline reads. Validated with zod when the service starts, so a typo stops
// the service with a message naming the feed and field instead of failing at
// 3 a.m. on the first scheduled run.

/** Which formats each feed kind accepts. A new format is one entry here plus a parser in its loader. */
export const FORMATS = {
  networks: ["networks-jsonl"],
  programs: ["programs-jsonl"],
  products: ["gmc-tsv", "gmc-xml", "awin-csv"],
  price_history: ["price-history-csv"],
  conversions: ["awin-transactions", "cj-commissions", "impact-actions", "conversions-generic"]
} satisfies Record<string, Array<string>>

export type FeedKind = keyof typeof FORMATS
export const FEED_KINDS = Object.keys(FORMATS) as Array<FeedKind>

/** Repo root: relative locations in the config are relative to it, wherever the process was started. */
export const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url))

const FeedOptions = z.object({
  /** Fail the run when more than this share of rows is rejected (0..1). */
  rejectThreshold: z.number().min(0).max(1).default(0.2),
  /** Currency of prices written without one. */
  currency: z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code like USD").optional(),
  /** Merchant display name for GMC feeds (they carry no store column). */
  store: z.string().min(1).optional(),
  /** A column (or XML element) naming each row's merchant, for multi-store feeds; options.store is the fallback. */
  storeColumn: z.string().min(1).optional(),
  country: z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 code like US").optional(),
  tag: z.string().min(1).optional(),
  /** HTTP sources: per-attempt timeout and retries with exponential backoff. */
  timeoutMs: z.number().int().positive().default(30_000),
  retries: z.number().int().min(0).max(10).default(3),
  /** Extra request headers for HTTP sources (e.g. an API key the network requires). */
  headers: z.record(z.string(), z.string()).default({}),
  ...ApiOptions
}).passthrough()

const Feed = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "must be a slug: lower-case letters, digits, - and _"),
  kind: z.enum(FEED_KINDS as [FeedKind, ...Array<FeedKind>]),
  format: z.string().min(1),
  location: z.string().min(1).refine(
    (value) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || /^(https?|file):\/\//i.test(value),
    "must be a local path, a file:// URL or an http(s):// URL"
  ),
  schedule: z.string().refine((value) => validCron(value), "must be a cron expression like \"0 */6 * * *\"").optional(),
  enabled: z.boolean().default(true),
  options: FeedOptions.default(FeedOptions.parse({}))
}).strict().superRefine((feed, ctx) => {
  const formats: ReadonlyArray<string> = FORMATS[feed.kind]
  if (feed.options.body !== undefined && feed.options.method !== "POST") {
    ctx.addIssue({ code: "custom", path: ["options", "body"], message: "a body needs options.method \"POST\"" })
  }
  if (isApiSource(feed) && !/^https?:\/\//i.test(feed.location)) {
    ctx.addIssue({ code: "custom", path: ["location"], message: "must be an http(s):// URL for an API source (auth, window, pagination, POST, {env:...})" })
  }
  if (/\{(from|to)\}/.test(feed.location + JSON.stringify(feed.options.body ?? "")) && feed.options.window === undefined) {
    ctx.addIssue({ code: "custom", path: ["options", "window"], message: "{from} / {to} need options.window" })
  }
  if (!formats.includes(feed.format)) {
    ctx.addIssue({
      code: "custom",
      path: ["format"],
      message: `must be one of ${formats.join(", ") || "(none registered)"} for kind ${feed.kind}`
    })
  }
})

export const FeedsFile = z.object({
  $schema: z.string().optional(),
  feeds: z.array(Feed)
}).strict().superRefine((file, ctx) => {
  const seen = new Set<string>()
  file.feeds.forEach((feed, index) => {
    if (seen.has(feed.name)) ctx.addIssue({ code: "custom", path: ["feeds", index, "name"], message: `duplicate feed name ${feed.name}` })
    seen.add(feed.name)
  })
})

export type FeedDefinition = z.infer<typeof Feed>
export type FeedOptions = z.infer<typeof FeedOptions>

/** Where a location points: a local file (absolute path) or an http(s) URL. */
export const resolveLocation = (location: string): { readonly type: "file"; readonly path: string } | {
  readonly type: "http"
  readonly url: string
} => {
  if (/^https?:\/\//i.test(location)) return { type: "http", url: location }
  if (/^file:\/\//i.test(location)) return { type: "file", path: fileURLToPath(location) }
  return { type: "file", path: isAbsolute(location) ? location : resolve(REPO_ROOT, location) }
}

/** Parses a feeds file's text; errors read `feeds[2] (awin-uk).format: must be one of ...`. */
export const parseFeedsConfig = (text: string, source: string): Effect.Effect<ReadonlyArray<FeedDefinition>, FeedConfigError> =>
  Effect.gen(function*() {
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (cause) {
      return yield* new FeedConfigError({ message: `${source}: not valid JSON: ${(cause as Error).message}` })
    }
    const parsed = FeedsFile.safeParse(json)
    if (parsed.success) return parsed.data.feeds
    const raw = json as { feeds?: Array<{ name?: unknown }> }
    const lines = parsed.error.issues.map((issue) => {
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
    catch: (cause) => new FeedConfigError({ message: `cannot read feed configuration ${path}: ${(cause as Error).message}` })
  }).pipe(Effect.flatMap((text) => parseFeedsConfig(text, path)))

/** Feeds with `enabled: false` where a variable they name is unset, and which enabled feeds wait for what. */
export const gateOnEnv = (feeds: ReadonlyArray<FeedDefinition>, env: Readonly<Record<string, string | undefined>> = process.env) => {
  const waiting: Array<{ feed: string; missing: Array<string> }> = []
  const gated = feeds.map((feed) => {
    const missing = requiredEnv(feed).filter((name) => !env[name])
    if (missing.length === 0) return feed
    if (feed.enabled) waiting.push({ feed: feed.name, missing })
    return { ...feed, enabled: false }
  })
  return { feeds: gated, waiting }
}

export class FeedsConfig extends Context.Service<FeedsConfig, {
  readonly feeds: ReadonlyArray<FeedDefinition>
  get(name: string): FeedDefinition | undefined
}>()("app/pipelines/FeedsConfig") {
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
    Effect.gen(function*() {
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

  static readonly layerWith = (feeds: ReadonlyArray<FeedDefinition>) => Layer.succeed(FeedsConfig, FeedsConfig.fromFeeds(feeds))
}

/** config/feeds.schema.json, for editors; test/pipelines/feedConfig.test.ts keeps the committed copy current. */
export const feedsJsonSchema = () =>
  JSON.stringify(z.toJSONSchema(FeedsFile, { io: "input", unrepresentable: "any" }), null, 2) + "\n"

/** A feed definition from a partial one, with defaults applied (tests, benchmarks). */
export const feedDefinition = (input: z.input<typeof Feed>): FeedDefinition => Feed.parse(input)
