import fc from "fast-check"
import { ConfigProvider, Effect, Redacted } from "effect"
import { AppConfig, type AppConfigShape } from "../../infra/AppConfig.ts"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { SearchSync } from "../../pipelines/search/SearchSync.ts"
import { insertCatalog, PROGRAMS, programId } from "../support/catalogFixture.ts"
import { insertProducts, productId } from "../support/catalogFixtures.ts"
import { discoveryCatalog } from "../support/discoveryCatalog.ts"
import { getJson, postJson } from "../support/http.ts"
import { startService, type RunningService } from "../support/TestService.ts"
import type { Credentials } from "./request.ts"
import { readSpec, type Spec } from "./spec.ts"
import type { Hints } from "./values.ts"
import { documentId } from "../../readModel/documents.ts"

// The service the fuzz run drives: started like every other test's (real
// store, real Meilisearch), with the fixture catalog and products, a partner,
// a tracking link, an admin token and a postback secret, so valid requests
// reach the handlers past validation, authentication and the signature.

export const FUZZ_ADMIN_TOKEN = "fuzz-admin-token-0123456789abcdef0123"
export const FUZZ_POSTBACK_NETWORK = "awin"
export const FUZZ_POSTBACK_SECRET = "fuzz-postback-secret-0123456789abcdef0123456789"

export interface FuzzService {
  readonly service: RunningService
  readonly url: string
  readonly port: number
  readonly spec: Spec
  readonly credentials: Credentials
  readonly hints: Hints
}

/**
 * Web URLs as fc.webUrl() draws them (http or https, a domain, a path whose
 * segments may carry percent-encoded characters), without its path
 * arbitrary: building that one maps every code point into a table, about
 * 2 s of CPU in each process that runs the fuzz, against 15 ms for this.
 */
const PERCENT_ENCODED = ["%20", "%25", "%2F", "%C3%A9", "%E2%82%AC", "%F0%9F%8E%81"]
const pathSegment = fc.string({
  unit: fc.oneof(
    {
      weight: 10,
      arbitrary: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@")
    },
    { weight: 1, arbitrary: fc.constantFrom(...PERCENT_ENCODED) }
  ),
  maxLength: 12
})
const webUrl = fc
  .tuple(fc.constantFrom("http", "https"), fc.domain(), fc.array(pathSegment, { maxLength: 4 }))
  .map(([scheme, host, segments]) => `${scheme}://${host}${segments.map((segment) => `/${segment}`).join("")}`)

const check = (what: string, response: { status: number; body: any }) => {
  if (response.status !== 200)
    throw new Error(`fuzz set-up: ${what} answered ${response.status} ${JSON.stringify(response.body)}`)
  return response.body
}

/**
 * The secrets as POSTBACK_SECRETS sets them, read by AppConfig itself: the
 * variable's JSON is the contract, whatever shape the config keeps them in.
 */
const postbackSecretsFromEnv = (secrets: Record<string, string>): AppConfigShape["postbackSecrets"] =>
  Effect.runSync(
    AppConfig.fromEnv.pipe(
      Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord({ POSTBACK_SECRETS: JSON.stringify(secrets) })))
    )
  ).postbackSecrets

/** A valid postback body (one conversion, a list, or { conversions }), credited to `trackingId` or to nobody. */
const postbackBody = (trackingId: string): fc.Arbitrary<unknown> => {
  const decimal = fc
    .tuple(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 99 }))
    .map(([a, b]) => `${a}.${b}`)
  // fixed dates: the service checks a range, not the clock
  const time = fc
    .integer({ min: Date.parse("2025-01-01T00:00:00Z"), max: Date.parse("2026-01-01T00:00:00Z") })
    .map((ms) => new Date(ms).toISOString())
  const conversion = fc.record(
    {
      network: fc.constant(FUZZ_POSTBACK_NETWORK),
      transaction_id: fc.stringMatching(/^tx-[a-z0-9]{1,12}$/),
      click_ref: fc.constantFrom(trackingId, null, "unknown-ref"),
      order_amount: decimal,
      commission: decimal,
      currency: fc.constantFrom("EUR", "USD", "GBP"),
      status: fc.constantFrom("pending", "approved", "declined", "reversed"),
      event_time: time,
      updated_time: time
    },
    { requiredKeys: ["transaction_id", "order_amount", "commission", "currency", "status", "event_time"] }
  )
  return fc.oneof(
    conversion,
    fc.uniqueArray(conversion, { minLength: 1, maxLength: 3, selector: (c) => c.transaction_id }),
    fc.record({
      conversions: fc.uniqueArray(conversion, { minLength: 1, maxLength: 3, selector: (c) => c.transaction_id })
    })
  )
}

export const startFuzzService = async (): Promise<FuzzService> => {
  const service = await startService({
    adminToken: Redacted.make(FUZZ_ADMIN_TOKEN),
    postbackSecrets: postbackSecretsFromEnv({ [FUZZ_POSTBACK_NETWORK]: FUZZ_POSTBACK_SECRET }),
    // One client sends every request: limits would answer 429 to most of them and hide the handlers.
    rateLimitPerKey: { perMinute: 1_000_000, burst: 1_000_000 },
    rateLimitPerIp: { perMinute: 1_000_000, burst: 1_000_000 },
    rateLimitRegister: { perMinute: 1_000_000, burst: 1_000_000 }
  })
  await service.run(insertCatalog())
  await service.run(ProgramMatcher.use((matcher) => matcher.reload))
  await service.run(insertProducts(discoveryCatalog))
  await service.run(SearchSync.use((sync) => sync.syncProducts()))
  const partner = check(
    "register",
    await postJson(`${service.url}/api/v1/partners/register`, { name: "Fuzz Partner", email: "fuzz@x.example" })
  )
  const link = check(
    "links/match",
    await postJson(
      `${service.url}/api/v1/links/match`,
      { url: "https://www.example-store.com/p/fuzz" },
      { authorization: `Bearer ${partner.api_key}` }
    )
  )
  if (link.matched !== true) throw new Error(`fuzz set-up: links/match matched nothing: ${JSON.stringify(link)}`)
  const trackingId: string = link.link.tracking_id
  const document = check("/openapi.json", await getJson(`${service.url}/openapi.json`))
  const programIds = PROGRAMS.map(programId)
  const productIds = discoveryCatalog.map(productId)
  const merchantUrls = PROGRAMS.flatMap((program) => program.domains.map((domain) => `https://${domain}/p/1?ref=x`))
  const hints: Hints = {
    url: fc.oneof(fc.constantFrom(...merchantUrls), webUrl),
    app_url: webUrl,
    email: fc.emailAddress().filter((email) => email.length <= 254),
    name: fc.oneof(fc.constantFrom("Deal Finder", "Ça Va", "Shop Bot"), fc.string({ minLength: 1, maxLength: 30 })),
    program_id: fc.constantFrom(...programIds, "awin:0"),
    type: fc.constantFrom("social", "email", "blog", "deal_alert"),
    tone: fc.constantFrom("casual", "professional", "enthusiastic", "informative"),
    feed: fc.constantFrom("awin-products-api", "cj-commissions-api", "none"),
    wait: fc.constant(false),
    limit: fc.integer({ min: 1, max: 50 }).map(String),
    offset: fc.integer({ min: 0, max: 100 }).map(String),
    rejected: fc.integer({ min: 1, max: 100 }).map(String),
    min_discount: fc.integer({ min: 0, max: 100 }).map(String),
    min_price: fc.integer({ min: 0, max: 500 }).map(String),
    max_price: fc.integer({ min: 0, max: 500 }).map(String),
    in_stock: fc.constantFrom("true", "false"),
    partner_id: fc.integer({ min: 1, max: 5 }).map(String),
    unattributed: fc.constantFrom("true", "false"),
    tag: fc.constantFrom("api", "web", "fuzz-partner"),
    q: fc.constantFrom("headphones", "wireless earbuds under 100", "coffee", "ноутбук", ""),
    category: fc.constantFrom("Electronics", "Kitchen", "Audio"),
    store: fc.constantFrom("SoundHub", "KitchenCo"),
    network: fc.constantFrom("awin", "cj", "rakuten"),
    domain: fc.constantFrom("example-store.com", "outlet.example-store.com"),
    currency: fc.constantFrom("EUR", "USD"),
    trackingId: fc.constantFrom(trackingId, `f.${Buffer.from(productIds[0]!).toString("base64url")}.api`),
    "page.deal.id": fc.constantFrom(...productIds.map(documentId), "bm90LWEtcHJvZHVjdA"),
    id: fc.constantFrom("run-1", "00000000-0000-0000-0000-000000000000"),
    "body:conversions.postback": postbackBody(trackingId)
  }
  const port = Number(new URL(service.url).port)
  return {
    service,
    url: service.url,
    port,
    spec: readSpec(document),
    credentials: {
      partnerKey: partner.api_key,
      adminToken: FUZZ_ADMIN_TOKEN,
      postbackNetwork: FUZZ_POSTBACK_NETWORK,
      postbackSecret: FUZZ_POSTBACK_SECRET
    },
    hints
  }
}
