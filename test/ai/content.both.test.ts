import { Effect, Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { AMAZON_DISCLOSURE } from "../../discovery/present.ts"
import { insertCatalog, NETWORKS, PROGRAMS, type FixtureProgram } from "../support/catalogFixture.ts"
import { type FixtureProduct, insertProducts } from "../support/catalogFixtures.ts"
import { getJson, postJson } from "../support/http.ts"
import { type ChatRequest, type LlmStub, startLlmStub } from "../support/llmStub.ts"
import { type RunningService, startService } from "../support/TestService.ts"

// POST /api/v1/ai/generate-content over real HTTP: a real service (DuckDB,
// Meilisearch), the fixture catalog plus products with price history, and
// for the LLM generator a stub chat-completions server on 127.0.0.1.

const STORE = "cj:2002" // "Example Store (CJ)", example-store.com
const EMPTY_STORE = "awin:4101" // "Lamp Shop": no products in the catalog
const AMAZON = "awin:9901"

const PROGRAMS_WITH_AMAZON: ReadonlyArray<FixtureProgram> = [
  ...PROGRAMS,
  {
    networkId: "awin",
    merchantId: "9901",
    name: "Amazon US",
    domains: ["amazon.com"],
    commissionRate: 3,
    linkParams: { mid: "9901" }
  }
]

const PRODUCTS: ReadonlyArray<FixtureProduct> = [
  // A verified drop: 140 for 50 days, 99 for the last 2 (29% below our reference). The feed's "was" 199 is untrusted.
  {
    itemId: "boots",
    title: "Trailblazer 2 Hiking Boots, waterproof",
    brand: "Trailblazer",
    category: "Outdoor",
    price: 140,
    salePrice: 99,
    wasPrice: 199,
    history: [[50, 140]],
    currentSinceDays: 2,
    store: "Example Store",
    storeDomain: "www.example-store.com"
  },
  {
    itemId: "bag",
    title: "Canvas Weekender Bag",
    brand: "Roamer",
    category: "Outdoor",
    price: 59.5,
    store: "Example Store",
    storeDomain: "example-store.com"
  },
  // A store "was" price with no history: never a saving.
  {
    itemId: "jacket",
    title: "Rain Jacket",
    brand: "Roamer",
    category: "Outdoor",
    price: 89,
    wasPrice: 150,
    store: "Example Store",
    storeDomain: "shop.example-store.com"
  },
  {
    itemId: "socks",
    title: "Merino Trail Socks",
    category: "Outdoor",
    price: 12,
    availability: "out_of_stock",
    history: [[40, 18]],
    currentSinceDays: 1,
    store: "Example Store",
    storeDomain: "example-store.com"
  },
  // Another merchant's product: never in this programme's facts.
  {
    itemId: "tv",
    title: "Gadget 65 inch TV",
    price: 777,
    salePrice: 555,
    history: [[40, 777]],
    currentSinceDays: 1,
    store: "Gadget",
    storeDomain: "gadget.de"
  },
  { itemId: "echo", title: "Echo Smart Speaker", price: 49.99, store: "Amazon", storeDomain: "www.amazon.com" }
]

const TYPES = ["social", "email", "blog", "deal_alert"] as const
const TONES = ["casual", "professional", "enthusiastic", "informative"] as const

const auth = (key: string) => ({ authorization: `Bearer ${key}` })

const setUp = async (service: RunningService) => {
  await service.run(
    Effect.gen(function* () {
      yield* insertCatalog(NETWORKS, PROGRAMS_WITH_AMAZON)
      yield* insertProducts(PRODUCTS)
      yield* (yield* ProgramMatcher).reload
    })
  )
  return (
    await postJson(`${service.url}/api/v1/partners/register`, { name: "Copy Writer Co", email: "copy@x.example" })
  ).body.api_key as string
}

/** The numbers a reader sees in the copy, outside the link (the tracking URL holds a port and an id). */
const numbersOutsideLink = (body: string, trackingUrl: string) =>
  [...body.replaceAll(trackingUrl, " ").matchAll(/\d+(?:[.,]\d+)*/g)].map((m) =>
    Number(m[0].replace(/,(?=\d{3}\b)/g, "").replace(",", "."))
  )

/** Every number the response says the copy may use: prices, references, discounts, and numbers inside names. */
const factNumbers = (res: any): Set<number> => {
  const allowed = new Set<number>()
  const fromText = (text: string | null) => {
    for (const m of (text ?? "").matchAll(/\d+(?:\.\d+)?/g)) allowed.add(Number(m[0]))
  }
  fromText(res.facts.store)
  fromText(res.facts.domain)
  for (const product of res.facts.products) {
    allowed.add(product.price)
    if (product.reference_price !== null) allowed.add(product.reference_price)
    if (product.discount_percent !== null) allowed.add(product.discount_percent)
    fromText(product.title)
    fromText(product.brand)
  }
  return allowed
}

/** The checks every piece of copy must pass, whichever generator wrote it. */
const expectHonestCopy = (res: any, type: string) => {
  const { body, tracking_url, disclosure, call_to_action } = res
  // The partner's absolute tracking link, in the copy.
  expect(tracking_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/t\/[A-Za-z0-9_-]+$/)
  expect(body).toContain(tracking_url)
  // The disclosure, right before the link: only the call to action between them.
  const disclosureAt = body.indexOf(disclosure)
  const linkAt = body.indexOf(tracking_url)
  expect(disclosureAt).toBeGreaterThanOrEqual(0)
  expect(disclosureAt).toBeLessThan(linkAt)
  const between = body.slice(disclosureAt + disclosure.length, linkAt)
  expect(between).toContain(call_to_action)
  expect(between.length).toBeLessThanOrEqual(call_to_action.length + 3)
  // Numbers only from the facts.
  const allowed = factNumbers(res)
  for (const n of numbersOutsideLink(body, tracking_url)) expect(allowed, `${n} in: ${body}`).toContain(n)
  for (const field of [res.title, res.subject, res.preheader]) {
    for (const n of numbersOutsideLink(field ?? "", tracking_url)) expect(allowed, `${n} in: ${field}`).toContain(n)
  }
  // No codes or promises we have no facts for.
  expect(body).not.toMatch(/coupon|promo code|voucher|\bcode\b|free shipping|free delivery|guarantee/i)
  // Length and shape conventions.
  if (type === "social") {
    expect(body.length).toBeLessThanOrEqual(280)
    expect(disclosure).toMatch(/^#ad /)
  } else {
    expect(disclosure).toMatch(/we earn a commission/i)
  }
  if (type === "email") {
    expect(res.subject.length).toBeGreaterThan(0)
    expect(res.subject.length).toBeLessThanOrEqual(78)
    expect(res.preheader.length).toBeGreaterThan(0)
    expect(res.preheader.length).toBeLessThanOrEqual(130)
  } else {
    expect(res.subject).toBeNull()
    expect(res.preheader).toBeNull()
  }
  if (type === "blog") {
    expect(res.title.length).toBeGreaterThan(0)
    const paragraphs = body
      .slice(0, disclosureAt)
      .split(/\n\s*\n/)
      .filter((p: string) => p.trim().length > 0)
    expect(paragraphs.length).toBeGreaterThanOrEqual(3)
  } else {
    expect(res.title).toBeNull()
  }
  if (type === "deal_alert") expect(body.length).toBeLessThanOrEqual(600)
}

describe("POST /api/v1/ai/generate-content, template generator", () => {
  let service: RunningService
  let key: string
  const generate = (body: unknown, headers: Record<string, string> = auth(key)) =>
    postJson(`${service.url}/api/v1/ai/generate-content`, body, headers)

  beforeAll(async () => {
    service = await startService()
    key = await setUp(service)
  })
  afterAll(() => service.close())

  it("uses the programme's best products with savings from our price history, never the feed's 'was' price", async () => {
    const res = await generate({ program_id: STORE, type: "email", tone: "informative" })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      type: "email",
      tone: "informative",
      generator: "template",
      fallback: null,
      program: { id: STORE, name: "Example Store (CJ)", network: "cj" },
      facts: { store: "Example Store", domain: "example-store.com", category: "Outdoor" }
    })
    const products = res.body.facts.products
    // In stock first, deepest verified saving first; the out-of-stock socks last; no other store's products.
    expect(products.map((p: any) => p.id)).toEqual(["fixture:boots", "fixture:bag", "fixture:jacket", "fixture:socks"])
    expect(products[0]).toMatchObject({ price: 99, reference_price: 140, discount_percent: 29, currency: "USD" })
    expect(products[2]).toMatchObject({ price: 89, reference_price: null, discount_percent: null })
    // the feed's "was" prices (199, 150, 555) appear nowhere in the prose (the tracked link's
    // host carries the test server's random port, which may hold those digits)
    const prose = String(res.body.body).replace(/https?:\/\/\S+/g, "")
    expect(prose).toContain("$99.00")
    expect(prose).not.toContain("199")
    expect(prose).not.toContain("150")
    expect(prose).not.toContain("555")
    expectHonestCopy(res.body, "email")
  })

  for (const type of TYPES) {
    for (const tone of TONES) {
      it(`writes ${type} copy in a ${tone} tone within the type's conventions`, async () => {
        const res = await generate({ program_id: STORE, type, tone })
        expect(res.status).toBe(200)
        expect(res.body.generator).toBe("template")
        expectHonestCopy(res.body, type)
      })
    }
  }

  it("deal alerts name the price and the reference price or discount, and link to the product", async () => {
    const res = await generate({ program_id: STORE, type: "deal_alert", tone: "professional" })
    expect(res.status).toBe(200)
    expect(res.body.body).toContain("$99.00")
    expect(res.body.body.includes("$140.00") || res.body.body.includes("29%")).toBe(true)
    expect(res.body.destination_url).toBe("https://www.example-store.com/p/boots")
  })

  it("varies its wording between identical requests", async () => {
    const bodies = new Set<string>()
    for (let i = 0; i < 8; i++)
      bodies.add((await generate({ program_id: STORE, type: "social", tone: "casual" })).body.body)
    expect(bodies.size).toBeGreaterThan(1)
  })

  it("links through the partner's own tracking link: /t/ redirects to the programme's affiliate URL and GET /api/v1/links lists it", async () => {
    const res = await generate({ program_id: STORE, type: "social", tone: "enthusiastic" })
    const redirect = await fetch(res.body.tracking_url, { redirect: "manual" })
    expect(redirect.status).toBe(302)
    expect(redirect.headers.get("location")).toBe(
      `https://www.anrdoezrs.net/click-7654321-13579?url=${encodeURIComponent("https://example-store.com/")}&sid=${res.body.tracking_id}`
    )
    expect(res.body.destination_url).toBe("https://example-store.com/")
    const listed = await getJson(`${service.url}/api/v1/links?limit=100`, auth(key))
    expect(listed.status).toBe(200)
    const mine = listed.body.data.find((item: any) => item.tracking_id === res.body.tracking_id)
    expect(mine).toMatchObject({
      tracking_url: res.body.tracking_url,
      program_id: STORE,
      network_id: "cj",
      destination_url: "https://example-store.com/"
    })
    // Another partner gets a link of its own.
    const otherKey = (
      await postJson(`${service.url}/api/v1/partners/register`, { name: "Second Co", email: "s@x.example" })
    ).body.api_key
    const theirs = await generate({ program_id: STORE, type: "social", tone: "enthusiastic" }, auth(otherKey))
    expect(theirs.body.tracking_id).not.toBe(res.body.tracking_id)
  })

  it("writes about the store, without numbers, for a programme with no products", async () => {
    for (const type of ["social", "email", "blog"] as const) {
      const res = await generate({ program_id: EMPTY_STORE, type, tone: "casual" })
      expect(res.status).toBe(200)
      expect(res.body.facts.products).toEqual([])
      expect(res.body.body).toContain("Lamp Shop")
      expect(numbersOutsideLink(res.body.body, res.body.tracking_url)).toEqual([])
      expectHonestCopy(res.body, type)
    }
  })

  it("adds Amazon's required sentence for an Amazon programme", async () => {
    for (const type of ["social", "blog"] as const) {
      const res = await generate({ program_id: AMAZON, type, tone: "professional" })
      expect(res.status).toBe(200)
      expect(res.body.disclosure).toContain(AMAZON_DISCLOSURE)
      expectHonestCopy(res.body, type)
    }
  })

  it("names a programme by the integer number GET /api/v1/programs lists, as by its id", async () => {
    const listed = await getJson(`${service.url}/api/v1/programs?q=${encodeURIComponent("Example Store")}&network=cj`)
    const store = listed.body.data.find((p: { id: string }) => p.id === STORE)
    expect(Number.isInteger(store.number)).toBe(true)
    const byNumber = await generate({ program_id: store.number, type: "social", tone: "casual" })
    expect(byNumber.status).toBe(200)
    expect(byNumber.body.program).toMatchObject({ id: STORE, number: store.number })
    const byId = await generate({ program_id: STORE, type: "social", tone: "casual" })
    expect(byId.body.program).toMatchObject({ id: STORE, number: store.number })

    const unknown = await generate({ program_id: 2_000_000_000, type: "social", tone: "casual" })
    expect([unknown.status, unknown.body.error.code, unknown.body.error.message]).toEqual([
      404,
      "program_not_found",
      "no programme with number 2000000000"
    ])
    for (const bad of [0, -3, 2_147_483_648, 1.5]) {
      const res = await generate({ program_id: bad, type: "social", tone: "casual" })
      expect(res.status, String(bad)).toBe(400)
      expect(JSON.stringify(res.body.error)).toContain("program_id")
    }
  })

  it("answers 409 when no deal alert or no link can be made, 404 for an unknown programme", async () => {
    const cases: Array<[string, string, number, string]> = [
      [EMPTY_STORE, "deal_alert", 409, "no_deal"],
      ["awin:6002", "social", 409, "program_inactive"],
      ["shareasale:6001", "social", 409, "network_unavailable"],
      ["rakuten:4102", "social", 409, "deep_link_unavailable"],
      ["awin:does-not-exist", "social", 404, "program_not_found"]
    ]
    for (const [program_id, type, status, code] of cases) {
      const res = await generate({ program_id, type, tone: "casual" })
      expect(res.status, `${program_id} ${type}`).toBe(status)
      expect(res.body.error.code).toBe(code)
      expect(res.body.error.message).toContain(program_id)
    }
  })

  it("rejects unknown type and tone with a 400 naming the field and listing the allowed values", async () => {
    const badType = await generate({ program_id: STORE, type: "tweet", tone: "casual" })
    expect(badType.status).toBe(400)
    expect(badType.body.error.message).toContain("type")
    expect(badType.body.error.message).toContain("social, email, blog, deal_alert")
    expect(badType.body.error.details).toEqual({ field: "type", allowed: ["social", "email", "blog", "deal_alert"] })
    const badTone = await generate({ program_id: STORE, type: "social", tone: "sarcastic" })
    expect(badTone.status).toBe(400)
    expect(badTone.body.error.message).toContain("casual, professional, enthusiastic, informative")
    expect(badTone.body.error.details).toMatchObject({
      field: "tone",
      allowed: ["casual", "professional", "enthusiastic", "informative"]
    })
    const missing = await generate({ type: "social", tone: "casual" })
    expect(missing.status).toBe(400)
    expect(JSON.stringify(missing.body.error)).toContain("program_id")
    const empty = await generate({ program_id: "  ", type: "social", tone: "casual" })
    expect(empty.status).toBe(400)
    expect(empty.body.error.details).toEqual({ field: "program_id" })
    const notJson = await generate("{not json")
    expect(notJson.status).toBe(400)
  })

  it("requires a partner key", async () => {
    const none = await generate({ program_id: STORE, type: "social", tone: "casual" }, {})
    expect(none.status).toBe(401)
    const unknown = await generate({ program_id: STORE, type: "social", tone: "casual" }, auth(`ak_${"x".repeat(43)}`))
    expect(unknown.status).toBe(401)
    expect(unknown.body.error.code).toBe("unauthorized")
  })
})

describe("POST /api/v1/ai/generate-content, LLM generator against a chat-completions stub", () => {
  let stub: LlmStub
  let service: RunningService
  let key: string
  const generate = (body: unknown) => postJson(`${service.url}/api/v1/ai/generate-content`, body, auth(key))

  /** The facts block of the prompt the stub received. */
  const promptFacts = (request: ChatRequest) => {
    const user = request.body.messages.find((m) => m.role === "user")!.content
    return JSON.parse(user.slice(user.indexOf("Facts (JSON):") + "Facts (JSON):".length))
  }
  /** What a well-behaved model writes: only the prompt's facts. */
  const honestWriter = (request: ChatRequest) => {
    const facts = promptFacts(request)
    const deal = facts.products.find((p: any) => p.reference_price !== undefined)
    const text = `${deal.name} is ${deal.price} at ${facts.store}, down from ${deal.reference_price}.`
    return JSON.stringify({
      subject: `${facts.store}: ${deal.price}`,
      preheader: `Down ${deal.discount_percent}% from ${deal.reference_price}.`,
      text: request.body.messages[1]!.content.startsWith("Type: email")
        ? `Hello,\n\n${text} ${facts.products.map((p: any) => `${p.name} costs ${p.price}.`).join(" ")}\n\nEnjoy.`
        : text,
      call_to_action: "Shop now"
    })
  }

  beforeAll(async () => {
    stub = await startLlmStub()
    service = await startService({
      llmBaseUrl: Option.some(stub.url),
      llmApiKey: Option.some(Redacted.make("sk-stub-secret")),
      llmModel: "stub-model",
      llmTimeoutMs: 1_500
    })
    key = await setUp(service)
  })
  afterAll(async () => {
    await service.close()
    await stub.close()
  })

  it("uses the model's copy when it passes the fact check, with our link and disclosure, from a prompt of catalog facts only", async () => {
    stub.behave({ kind: "answer", write: honestWriter })
    const before = stub.requests.length
    const res = await generate({ program_id: STORE, type: "social", tone: "enthusiastic" })
    expect(res.status).toBe(200)
    expect(res.body.generator).toBe("llm")
    expect(res.body.fallback).toBeNull()
    expect(res.body.body).toContain(
      "Trailblazer 2 Hiking Boots, waterproof is $99.00 at Example Store, down from $140.00."
    )
    expectHonestCopy(res.body, "social")

    const request = stub.requests[before]!
    expect(request.path).toBe("/v1/chat/completions")
    expect(request.headers.authorization).toBe("Bearer sk-stub-secret")
    expect(request.body).toMatchObject({
      model: "stub-model",
      temperature: expect.any(Number),
      max_tokens: expect.any(Number)
    })
    expect(request.body.messages.map((m) => m.role)).toEqual(["system", "user"])
    expect(request.body.messages[1]!.content).toContain("Tone: enthusiastic")
    // The prompt's facts are exactly the response's facts: this programme's products, our prices and savings.
    const facts = promptFacts(request)
    expect(facts.store).toBe("Example Store")
    expect(facts.products.map((p: any) => p.name)).toEqual(res.body.facts.products.map((p: any) => p.title))
    expect(facts.products[0]).toEqual({
      name: "Trailblazer 2 Hiking Boots, waterproof",
      brand: "Trailblazer",
      price: "$99.00",
      reference_price: "$140.00",
      discount_percent: 29,
      availability: "in_stock"
    })
    expect(facts.products[2]).not.toHaveProperty("reference_price")
    const prompt = JSON.stringify(request.body.messages)
    for (const foreign of ["199", "150.00", "Gadget 65", "555", "777", "Echo", "/p/boots"])
      expect(prompt).not.toContain(foreign)
  })

  it("accepts a fact-checked email from the model", async () => {
    stub.behave({ kind: "answer", write: honestWriter })
    const res = await generate({ program_id: STORE, type: "email", tone: "professional" })
    expect(res.status).toBe(200)
    expect(res.body.generator).toBe("llm")
    expect(res.body.subject).toBe("Example Store: $99.00")
    expectHonestCopy(res.body, "email")
  })

  const fallbackCases: Array<[string, Parameters<LlmStub["behave"]>[0], string]> = [
    ["a slow answer (timeout)", { kind: "slow", delayMs: 6_000, write: honestWriter }, "timeout"],
    ["a 500", { kind: "error", status: 500 }, "http_error"],
    ["a body that is not a chat completion", { kind: "raw", body: '{"choices": [' }, "malformed_response"],
    ["a dropped connection", { kind: "hangup" }, "unreachable"],
    ["copy that is not the JSON asked for", { kind: "answer", write: () => "Great boots, buy now!" }, "invalid_output"],
    [
      "an invented price",
      {
        kind: "answer",
        write: (r) =>
          JSON.stringify({
            text: `${promptFacts(r).store} has boots for $79.99 this week.`,
            call_to_action: "Shop now"
          })
      },
      "invented_numbers"
    ],
    [
      "an invented coupon code",
      {
        kind: "answer",
        write: (r) =>
          JSON.stringify({ text: `Use code SAVE at ${promptFacts(r).store} for boots.`, call_to_action: "Shop now" })
      },
      "unsupported_claim"
    ]
  ]

  for (const [name, behaviour, reason] of fallbackCases) {
    it(`falls back to the template on ${name} and says why`, async () => {
      stub.behave(behaviour)
      const res = await generate({ program_id: STORE, type: "social", tone: "casual" })
      expect(res.status).toBe(200)
      expect(res.body.generator).toBe("template")
      expect(res.body.fallback).toMatchObject({ reason })
      expect(res.body.fallback.message).not.toContain("sk-stub-secret")
      expect(res.body.body).not.toContain("79.99")
      expect(res.body.body).not.toMatch(/SAVE/)
      expectHonestCopy(res.body, "social")
    }, 20_000)
  }
})
