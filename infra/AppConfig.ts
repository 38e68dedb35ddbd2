// Deep imports (effect/Effect, not the "effect" index): this module is loaded before the first log
// line, and the index would load every module of the library first (ServeUntilStopped.ts).
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import { randomBytes } from "node:crypto"
import { resolve } from "node:path"
import { MARKET_COUNTRIES, marketOf } from "../domain/markets/markets.ts"
import { parsePostbackSecrets, type PostbackSecrets } from "./PostbackSecrets.ts"

// Everything the service reads from its environment, in one place, so the
// README table and the code cannot drift. Defaults make `npm start` work on a
// fresh clone with nothing set.
/** What this process does: `all` is the single process; `api` and `worker` split it over PostgreSQL. */
export const ROLES = ["all", "api", "worker"] as const
export type Role = (typeof ROLES)[number]

/** A split role (`api`, `worker`) without DATABASE_URL: refused at start. */
export class RoleNeedsPostgres extends Data.TaggedError("RoleNeedsPostgres")<{ readonly role: Role }> {
  override get message() {
    return (
      `ROLE=${this.role} needs DATABASE_URL (PostgreSQL): one DuckDB file allows one writing process, ` +
      `so the api and worker roles share a PostgreSQL database; unset ROLE (or ROLE=all) to run everything in one process`
    )
  }
}

export interface AppConfigShape {
  /** ROLE: which parts this process runs (HTTP API, schedules and feeds, or both). */
  readonly role: Role
  /** How often API processes look at the catalog version row for changes made by another process. */
  readonly catalogPollMs: number
  readonly port: number
  readonly host: string
  /** Every file the service writes lives under this folder. */
  readonly dataDir: string
  /** Base for absolute links; `None` means "the server's own address". */
  readonly publicBaseUrl: Option.Option<string>
  /** External Meilisearch; `None` starts the embedded child process. */
  readonly meiliUrl: Option.Option<string>
  readonly meiliMasterKey: Option.Option<Redacted.Redacted<string>>
  readonly meiliBin: Option.Option<string>
  /** Prefix for every index uid, so instances and test files can share one Meilisearch. */
  readonly meiliIndexPrefix: string
  readonly feedsConfigPath: string
  readonly adminToken: Redacted.Redacted<string>
  /** True when ADMIN_TOKEN was not set and a random one was generated for this process. */
  readonly adminTokenGenerated: boolean
  readonly logLevel: string
  /** Currency of conversion revenue totals (commission_reporting, partner/platform shares). */
  readonly reportingCurrency: string
  /** Rate table for the reporting currency (config/rates.json). */
  readonly ratesConfigPath: string
  /**
   * Postback shared secrets per network id, the HMAC keys for
   * /api/v1/conversions/postback: any of a network's secrets verifies, so a
   * secret is rotated by adding the new one, then removing the old. Empty: postbacks are off.
   */
  readonly postbackSecrets: PostbackSecrets
  /** Run every feed once at start-up when the catalog is empty. */
  readonly ingestOnStart: boolean
  /** Arm the cron schedules. */
  readonly schedulesEnabled: boolean
  /** Link service rate limits (token buckets): sustained requests per minute, and burst size. */
  readonly rateLimitPerKey: { readonly perMinute: number; readonly burst: number }
  readonly rateLimitPerIp: { readonly perMinute: number; readonly burst: number }
  readonly rateLimitRegister: { readonly perMinute: number; readonly burst: number }
  /** Replicas (PostgreSQL): how often each sends what its per-IP and per-key buckets granted to the shared ones. */
  readonly rateLimitSyncMs: number
  /**
   * TRUST_PROXY: how many proxies of yours stand in front of the service (0: none, the socket peer is the
   * client). The client is the entry that many hops from the right of X-Forwarded-For: the address the
   * outermost proxy of yours saw. Entries left of it were sent by the client and prove nothing.
   */
  readonly trustProxy: number
  /** Socket timeouts and per-client caps of the HTTP server (api/edge/). */
  readonly httpEdge: HttpEdgeConfig
  /** Click queue capacity; overflow is counted and logged. */
  readonly clickQueueSize: number
  /** Days of clicks kept before the current UTC day (CLICK_RETENTION_DAYS); `None` keeps every click. */
  readonly clickRetentionDays: Option.Option<number>
  /** Tracking-link LRU entries kept for the redirect. */
  readonly linkCacheSize: number
  /** OpenAI-compatible chat-completions endpoint for generated copy; `None` uses the template generator only. */
  readonly llmBaseUrl: Option.Option<string>
  readonly llmApiKey: Option.Option<Redacted.Redacted<string>>
  readonly llmModel: string
  /** Longest wait for the LLM before the copy falls back to the template generator. */
  readonly llmTimeoutMs: number
  /** DuckDB worker threads (DUCKDB_THREADS); `None` lets Database pick from the CPU quota. */
  readonly duckdbThreads: Option.Option<number>
  /** DuckDB memory_limit in DuckDB syntax ("2GB"); `None` keeps Database's default. */
  readonly duckdbMemoryLimit: Option.Option<string>
  /**
   * BACKGROUND_NICE: the nice value (Linux) of background work, the embedded Meilisearch's indexing
   * threads and the search sync's worker thread, so serving keeps the CPU first; 0 turns it off.
   */
  readonly backgroundNice: number
  /** Seconds the AI deal lists count as fresh; 0 computes every request. */
  readonly aiDealsCacheSeconds: number
  /** PostgreSQL as the store (postgres:// or postgresql://); `None` keeps the embedded DuckDB file. */
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  /** PostgreSQL connections this process opens at most. */
  readonly databasePoolSize: number
  /** DEFAULT_COUNTRY: the market (ISO 3166-1 alpha-2) of requests that name none; `None`: answers may span markets. */
  readonly defaultCountry: Option.Option<string>
}

export interface HttpEdgeConfig {
  /** HTTP_HEADERS_TIMEOUT_MS: a request's headers must arrive within this time of its first byte. */
  readonly headersTimeoutMs: number
  /** HTTP_REQUEST_TIMEOUT_MS: the whole request (headers and body) must arrive within this time. */
  readonly requestTimeoutMs: number
  /** HTTP_KEEP_ALIVE_TIMEOUT_MS: an idle keep-alive connection is closed after this time. */
  readonly keepAliveTimeoutMs: number
  /** MAX_CONNECTIONS_PER_IP: open connections one socket address may hold; 0 turns the cap off. */
  readonly maxConnectionsPerIp: number
  /** CONCURRENT_REQUESTS_PER_IP: public reads one client may have in flight at once; 0 turns the cap off. */
  readonly concurrentRequestsPerIp: number
  /** METRICS_PORT: a loopback-only port serving /metrics without the admin token; `None`: no such port. */
  readonly metricsPort: Option.Option<number>
}

/**
 * TRUST_PROXY as a number of trusted proxy hops; `true`/`false` (the older
 * boolean form) read as 1 and 0.
 */
const TrustProxy = Schema.Union([
  Schema.Literals(["true", "false"]).pipe(
    Schema.decodeTo(Schema.Number, {
      decode: SchemaGetter.transform((value) => (value === "true" ? 1 : 0)),
      encode: SchemaGetter.transform((hops) => (hops > 0 ? "true" : "false"))
    })
  ),
  Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 16 }))
])

const POSTGRES_URL = /^postgres(ql)?:\/\//

export class AppConfig extends Context.Service<AppConfig, AppConfigShape>()("app/infra/AppConfig") {
  static readonly fromEnv = Effect.gen(function* () {
    const role = yield* Config.Literals(ROLES, "ROLE").pipe(Config.withDefault("all" as const))
    // Below 10 ms the poll would be a busy loop on the database.
    const catalogPollMs = yield* Config.schema(
      Schema.NumberFromString.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(10)),
      "CATALOG_POLL_MS"
    ).pipe(Config.withDefault(1_000))
    const port = yield* Config.Port("PORT").pipe(Config.withDefault(3000))
    const host = yield* Config.String("HOST").pipe(Config.withDefault("127.0.0.1"))
    const dataDir = yield* Config.String("DATA_DIR").pipe(Config.withDefault("data/var"))
    const publicBaseUrl = yield* Config.option(Config.URL("PUBLIC_BASE_URL"))
    const meiliUrl = yield* Config.option(Config.URL("MEILI_URL"))
    const meiliMasterKey = yield* Config.option(Config.Redacted("MEILI_MASTER_KEY"))
    const meiliBin = yield* Config.option(Config.String("MEILI_BIN"))
    const meiliIndexPrefix = yield* Config.String("MEILI_INDEX_PREFIX").pipe(Config.withDefault(""))
    const feedsConfigPath = yield* Config.String("FEEDS_CONFIG").pipe(Config.withDefault("config/feeds.json"))
    const adminToken = yield* Config.option(Config.Redacted("ADMIN_TOKEN"))
    const logLevel = yield* Config.String("LOG_LEVEL").pipe(Config.withDefault("Info"))
    const reportingCurrency = yield* Config.String("REPORTING_CURRENCY").pipe(Config.withDefault("USD"))
    const ratesConfigPath = yield* Config.String("RATES_CONFIG").pipe(Config.withDefault("config/rates.json"))
    // JSON object {"awin":"...","impact":["new","old"]}. No default: a secret
    // anybody can read (a README's) would let anybody mint commissions.
    const postbackSecretsText = yield* Config.option(Config.String("POSTBACK_SECRETS"))
    const postbackSecrets = Option.isNone(postbackSecretsText)
      ? {}
      : yield* parsePostbackSecrets(postbackSecretsText.value)
    const ingestOnStart = yield* Config.Boolean("INGEST_ON_START").pipe(Config.withDefault(true))
    const schedulesEnabled = yield* Config.Boolean("SCHEDULES_ENABLED").pipe(Config.withDefault(true))
    // 0 is a limit (no refill; no requests at all); a negative one is refused
    // at startup rather than turned into a bucket that drains or fills itself.
    const rateField = (name: string, fallback: number) =>
      Config.schema(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)), name).pipe(Config.withDefault(fallback))
    const rate = (name: string, perMinute: number, burst: number) =>
      Effect.all({
        perMinute: rateField(`${name}_PER_MINUTE`, perMinute),
        burst: rateField(`${name}_BURST`, burst)
      })
    const rateLimitPerKey = yield* rate("RATE_LIMIT_KEY", 600, 120)
    const rateLimitPerIp = yield* rate("RATE_LIMIT_IP", 300, 60)
    const rateLimitRegister = yield* rate("RATE_LIMIT_REGISTER", 5, 5)
    const trustProxy = yield* Config.schema(TrustProxy, "TRUST_PROXY").pipe(Config.withDefault(0))
    const millis = (name: string, fallback: number, maximum: number) =>
      Config.schema(
        Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum })),
        name
      ).pipe(Config.withDefault(fallback))
    const count = (name: string) =>
      Config.option(
        Config.schema(Schema.NumberFromString.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)), name)
      )
    // Behind a proxy of yours every connection comes from the proxy's address:
    // a per-address connection cap would cap the proxy, so it is off unless set.
    const maxConnectionsPerIp = yield* count("MAX_CONNECTIONS_PER_IP")
    const rateLimitSyncMs = yield* millis("RATE_LIMIT_SYNC_MS", 100, 10_000)
    const httpEdge: HttpEdgeConfig = {
      headersTimeoutMs: yield* millis("HTTP_HEADERS_TIMEOUT_MS", 10_000, 10_000),
      requestTimeoutMs: yield* millis("HTTP_REQUEST_TIMEOUT_MS", 30_000, 30_000),
      keepAliveTimeoutMs: yield* millis("HTTP_KEEP_ALIVE_TIMEOUT_MS", 5_000, 120_000),
      maxConnectionsPerIp: Option.getOrElse(maxConnectionsPerIp, () => (trustProxy > 0 ? 0 : 256)),
      concurrentRequestsPerIp: Option.getOrElse(yield* count("CONCURRENT_REQUESTS_PER_IP"), () => 8),
      metricsPort: yield* Config.option(Config.Port("METRICS_PORT"))
    }
    const clickQueueSize = yield* Config.Int("CLICK_QUEUE_SIZE").pipe(Config.withDefault(100_000))
    const clickRetentionDays = yield* Config.option(
      Config.schema(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)), "CLICK_RETENTION_DAYS")
    )
    const linkCacheSize = yield* Config.Int("LINK_CACHE_SIZE").pipe(Config.withDefault(100_000))
    const llmBaseUrl = yield* Config.option(Config.URL("LLM_BASE_URL"))
    const llmApiKey = yield* Config.option(Config.Redacted("LLM_API_KEY"))
    const llmModel = yield* Config.String("LLM_MODEL").pipe(Config.withDefault("gpt-4o-mini"))
    const llmTimeoutMs = yield* Config.Int("LLM_TIMEOUT_MS").pipe(Config.withDefault(8_000))
    const duckdbThreads = yield* Config.option(Config.Int("DUCKDB_THREADS"))
    const duckdbMemoryLimit = yield* Config.option(Config.String("DUCKDB_MEMORY_LIMIT"))
    // 19 is the kernel's largest nice value.
    const backgroundNice = yield* Config.schema(
      Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 19 })),
      "BACKGROUND_NICE"
    ).pipe(Config.withDefault(10))
    const aiDealsCacheSeconds = yield* Config.Int("AI_DEALS_CACHE_SECONDS").pipe(Config.withDefault(30))
    const databaseUrl = yield* Config.option(
      Config.schema(
        Schema.Redacted(
          Schema.String.check(
            Schema.isPattern(POSTGRES_URL, { message: "DATABASE_URL must start with postgres:// or postgresql://" })
          )
        ),
        "DATABASE_URL"
      )
    )
    if (role !== "all" && Option.isNone(databaseUrl)) return yield* new RoleNeedsPostgres({ role })
    const databasePoolSize = yield* Config.Int("DATABASE_POOL_SIZE").pipe(Config.withDefault(10))
    // A country we have no market for is refused at start, not silently ignored on every request.
    const defaultCountry = yield* Config.option(
      Config.schema(
        Schema.String.check(
          Schema.makeFilter((code: string) =>
            marketOf(code) !== undefined ? true : `DEFAULT_COUNTRY must be one of ${MARKET_COUNTRIES.join(", ")}`
          )
        ),
        "DEFAULT_COUNTRY"
      )
    )
    return {
      role,
      databaseUrl,
      catalogPollMs,
      port,
      host,
      dataDir: resolve(dataDir),
      publicBaseUrl: Option.map(publicBaseUrl, (url) => url.toString().replace(/\/+$/, "")),
      meiliUrl: Option.map(meiliUrl, (url) => url.toString().replace(/\/+$/, "")),
      meiliMasterKey,
      meiliBin,
      meiliIndexPrefix,
      feedsConfigPath: resolve(feedsConfigPath),
      adminToken: Option.getOrElse(adminToken, () => Redacted.make(randomBytes(24).toString("base64url"))),
      adminTokenGenerated: Option.isNone(adminToken),
      logLevel,
      reportingCurrency: reportingCurrency.toUpperCase(),
      ratesConfigPath: resolve(ratesConfigPath),
      postbackSecrets,
      ingestOnStart,
      schedulesEnabled,
      rateLimitPerKey,
      rateLimitPerIp,
      rateLimitRegister,
      rateLimitSyncMs,
      trustProxy,
      httpEdge,
      clickQueueSize,
      clickRetentionDays,
      linkCacheSize,
      llmBaseUrl: Option.map(llmBaseUrl, (url) => url.toString().replace(/\/+$/, "")),
      llmApiKey,
      llmModel,
      llmTimeoutMs,
      duckdbThreads,
      duckdbMemoryLimit,
      backgroundNice,
      aiDealsCacheSeconds,
      databasePoolSize,
      defaultCountry: Option.map(defaultCountry, (code) => marketOf(code)!.country)
    } satisfies AppConfigShape
  })

  static readonly layer = Layer.effect(AppConfig, AppConfig.fromEnv)

  /** For tests: a config with explicit values and test-friendly defaults. */
  static readonly layerWith = (overrides: Partial<AppConfigShape> & Pick<AppConfigShape, "dataDir">) =>
    Layer.succeed(AppConfig, {
      role: "all",
      databaseUrl: Option.none(),
      catalogPollMs: 1_000,
      port: 0,
      host: "127.0.0.1",
      publicBaseUrl: Option.none(),
      meiliUrl: Option.none(),
      meiliMasterKey: Option.none(),
      meiliBin: Option.none(),
      meiliIndexPrefix: "",
      feedsConfigPath: resolve("config/feeds.json"),
      adminToken: Redacted.make("test-admin-token"),
      adminTokenGenerated: false,
      logLevel: "Warn",
      reportingCurrency: "USD",
      ratesConfigPath: resolve("config/rates.json"),
      postbackSecrets: {},
      ingestOnStart: false,
      schedulesEnabled: false,
      rateLimitPerKey: { perMinute: 60_000, burst: 10_000 },
      rateLimitPerIp: { perMinute: 60_000, burst: 10_000 },
      rateLimitRegister: { perMinute: 60_000, burst: 10_000 },
      rateLimitSyncMs: 100,
      trustProxy: 0,
      // Short enough for no test to wait on them, caps high enough for concurrent tests from one address.
      httpEdge: {
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
        maxConnectionsPerIp: 0,
        concurrentRequestsPerIp: 0,
        metricsPort: Option.none()
      },
      clickQueueSize: 100_000,
      clickRetentionDays: Option.none(),
      linkCacheSize: 10_000,
      llmBaseUrl: Option.none(),
      llmApiKey: Option.none(),
      llmModel: "test-model",
      llmTimeoutMs: 8_000,
      duckdbThreads: Option.none(),
      duckdbMemoryLimit: Option.none(),
      backgroundNice: 10,
      aiDealsCacheSeconds: 30,
      databasePoolSize: 10,
      defaultCountry: Option.none(),
      ...overrides
    })
}
