import { describe, expect, it } from "vitest"
import { assemble, assembleWithin, type Placement } from "../../domain/copy/assemble.ts"
import {
  allowedNumbers,
  inventedNumbers,
  numbersIn,
  parseNumber,
  unsupportedClaims
} from "../../domain/copy/checkFacts.ts"
import { COPY_TYPES, type CopyFacts, money, shortTitle, storeName, TONES } from "../../domain/copy/facts.ts"
import { LIMITS, paragraphs } from "../../domain/copy/limits.ts"
import { checkDraft, parseDraft, promptFor } from "../../domain/copy/llmDraft.ts"
import { templateCopy } from "../../domain/copy/template.ts"

// The copy domain on plain values: the fact checker, the template generator
// over many random wordings, and the LLM draft checks.

/** A small seeded generator, so a failing wording can be reproduced. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const product = (over: Partial<CopyFacts["products"][number]>): CopyFacts["products"][number] => ({
  id: "f:x",
  title: "Thing",
  brand: null,
  category: null,
  price: 10,
  currency: "USD",
  referencePrice: null,
  discountPercent: null,
  availability: "in_stock",
  url: "https://shop.example/p/x",
  ...over
})

const WITH_DEAL: CopyFacts = {
  store: "Example Store",
  domain: "example-store.com",
  category: "Outdoor",
  products: [
    product({
      id: "a",
      title: "Trailblazer 2 Hiking Boots, waterproof",
      brand: "Trailblazer",
      price: 99,
      referencePrice: 140,
      discountPercent: 29
    }),
    product({ id: "b", title: "Canvas Weekender Bag", brand: "Roamer", price: 59.5 }),
    product({ id: "c", title: "Merino Trail Socks", price: 12, availability: "out_of_stock" })
  ]
}
const NO_DEAL: CopyFacts = {
  store: "Vistara",
  domain: "vistara.example",
  category: null,
  products: [
    product({
      title: "Vistara 55 inch 4K UHD Smart Television with an extraordinarily long marketing name that goes on",
      price: 1499,
      currency: "EUR"
    })
  ]
}
const EMPTY: CopyFacts = { store: "Lamp Shop", domain: "lamp-shop.com", category: null, products: [] }

const LONG_LINK = `https://affiliate-links.some-long-partner-domain.example.com/t/${"A".repeat(40)}`
const placementFor = (type: string, link: string): Placement => ({
  link,
  disclosure:
    type === "social"
      ? "#ad As an Amazon Associate I earn from qualifying purchases."
      : "Disclosure: we earn a commission if you buy through these links, at no extra cost to you."
})

describe("fact checker", () => {
  it("reads numbers as written in several conventions", () => {
    expect(parseNumber("79.00")).toBe(79)
    expect(parseNumber("1,299.99")).toBe(1299.99)
    expect(parseNumber("1.299,99")).toBe(1299.99)
    expect(parseNumber("79,50")).toBe(79.5)
    expect(parseNumber("1,299")).toBe(1299)
    expect(numbersIn("Now $99.00, down 29% from $140.00.")).toEqual([99, 29, 140])
  })

  it("allows only prices, references, discounts and numbers in names", () => {
    const allowed = allowedNumbers(WITH_DEAL)
    expect([...allowed].sort()).toEqual(["12.00", "140.00", "2.00", "29.00", "59.50", "99.00"])
    expect(inventedNumbers("Trailblazer 2 boots, $99.00 (was $140.00, -29%)", WITH_DEAL)).toEqual([])
    // 12 is the socks' price, so only the others are invented.
    expect(inventedNumbers("Boots for $89.99, 50% off, ends 12/24", WITH_DEAL)).toEqual(["89.99", "50", "24"])
  })

  it("finds claims we have no facts for", () => {
    expect(unsupportedClaims("Use code SAVE10 at checkout")).toContain("coupon or promo code")
    expect(unsupportedClaims("Free shipping on all orders")).toContain("free shipping, returns or gifts")
    expect(unsupportedClaims("Lowest price ever!")).toContain("price ranking")
    expect(unsupportedClaims("Hurry, limited time only")).toContain("urgency or stock count")
    expect(unsupportedClaims("A bestseller")).toContain("ratings or rankings")
    expect(unsupportedClaims("Trailblazer 2 Hiking Boots are now $99.00 at Example Store.")).toEqual([])
  })
})

describe("template generator", () => {
  const factSets: Array<[string, CopyFacts]> = [
    ["with a deal", WITH_DEAL],
    ["without a deal", NO_DEAL],
    ["without products", EMPTY]
  ]
  for (const [name, facts] of factSets) {
    for (const type of COPY_TYPES) {
      if (type === "deal_alert" && facts !== WITH_DEAL) continue
      it(`${type} ${name}: every tone and wording within limits, link and disclosure adjacent, only facts`, () => {
        for (const tone of TONES) {
          for (let seed = 1; seed <= 40; seed++) {
            for (const link of ["https://go.example/t/abc123XYZ", LONG_LINK]) {
              const placement = placementFor(type, link)
              const copy = templateCopy(facts, type, tone, placement, seeded(seed))
              const where = `${type}/${tone}/seed ${seed}: ${copy.body}`
              expect(copy.body.length, where).toBeLessThanOrEqual(LIMITS[type].totalMax)
              const disclosureEnd = copy.body.indexOf(placement.disclosure) + placement.disclosure.length
              const linkAt = copy.body.indexOf(link)
              expect(linkAt, where).toBeGreaterThan(disclosureEnd - 1)
              expect(copy.body.slice(disclosureEnd, linkAt).trim(), where).toBe(`${copy.callToAction}:`)
              const visible = [
                copy.body.replace(link, "").replace(placement.disclosure, ""),
                copy.title,
                copy.subject,
                copy.preheader
              ].join("\n")
              expect(inventedNumbers(visible, facts), where).toEqual([])
              expect(unsupportedClaims(visible), where).toEqual([])
              expect(visible, where).not.toMatch(/\{\w+\}|undefined|null/)
              if (type === "blog")
                expect(paragraphs(copy.body).length, where).toBeGreaterThanOrEqual(LIMITS.blog.minParagraphs + 1)
              if (type === "email") {
                expect(copy.subject!.length, where).toBeLessThanOrEqual(LIMITS.email.subjectMax)
                expect(copy.preheader!.length, where).toBeLessThanOrEqual(LIMITS.email.preheaderMax)
              }
              if (type === "deal_alert") expect(copy.body, where).toContain("$99.00")
            }
          }
        }
      })
    }
  }

  it("changes wording with tone and between calls", () => {
    const bodies = (tone: (typeof TONES)[number]) =>
      new Set(
        Array.from(
          { length: 30 },
          (_, i) =>
            templateCopy(
              WITH_DEAL,
              "social",
              tone,
              placementFor("social", "https://l.example/t/1"),
              seeded(i)
            ).body.split("\n")[0]
        )
      )
    const casual = bodies("casual")
    const professional = bodies("professional")
    expect(casual.size).toBeGreaterThan(1)
    expect([...casual].some((line) => professional.has(line))).toBe(false)
  })

  it("never presents a product without a verified reference price as discounted", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const copy = templateCopy(
        NO_DEAL,
        "email",
        "enthusiastic",
        placementFor("email", "https://l.example/t/1"),
        seeded(seed)
      )
      expect(copy.body).not.toMatch(/%|down from|dropped|reference/i)
    }
  })
})

describe("placement and LLM drafts", () => {
  it("drops hashtags before giving up on a social post's length", () => {
    const draft = { title: null, subject: null, preheader: null, text: "x".repeat(180), callToAction: "Shop now" }
    const placement = placementFor("social", "https://l.example/t/1")
    const copy = assembleWithin("social", draft, placement, ["#ExampleStore", "#Outdoor", "#deal"])!
    expect(copy.body.length).toBeLessThanOrEqual(280)
    expect(copy.hashtags.length).toBeLessThan(3)
    expect(assembleWithin("social", { ...draft, text: "x".repeat(260) }, placement, [])).toBeUndefined()
    expect(
      assemble("email", draft, placement, []).body.endsWith(`${placement.disclosure}\nShop now: https://l.example/t/1`)
    ).toBe(true)
  })

  it("builds a prompt from the facts only", () => {
    const [system, user] = promptFor(WITH_DEAL, "deal_alert", "casual")
    expect(system!.content).toMatch(/only the facts/i)
    expect(user!.content).toContain("Tone: casual")
    const facts = JSON.parse(user!.content.slice(user!.content.indexOf("Facts (JSON):") + "Facts (JSON):".length))
    expect(facts.products).toHaveLength(3)
    expect(facts.products[0]).toMatchObject({ price: "$99.00", reference_price: "$140.00", discount_percent: 29 })
    expect(user!.content).not.toContain("https://")
  })

  it("reads the model's JSON, with or without a code fence, and rejects anything else", () => {
    const answer = { text: "Boots at $99.00.", call_to_action: "Shop now" }
    expect(parseDraft(JSON.stringify(answer))).toMatchObject({
      text: "Boots at $99.00.",
      callToAction: "Shop now",
      title: null
    })
    expect(parseDraft("```json\n" + JSON.stringify(answer) + "\n```")).toMatchObject({ text: "Boots at $99.00." })
    expect(parseDraft("Boots at $99.00!")).toBeUndefined()
    expect(parseDraft(JSON.stringify({ text: "", call_to_action: "Go" }))).toBeUndefined()
    expect(parseDraft("[1,2]")).toBeUndefined()
  })

  it("checks drafts against the facts and the type's conventions", () => {
    const draft = (text: string, extra = {}) => ({
      title: null,
      subject: null,
      preheader: null,
      text,
      callToAction: "Shop now",
      ...extra
    })
    expect(
      checkDraft(
        "social",
        draft("Trailblazer 2 Hiking Boots are $99.00 at Example Store, down from $140.00."),
        WITH_DEAL
      )
    ).toBeUndefined()
    expect(checkDraft("social", draft("Boots for $79.99 at Example Store today."), WITH_DEAL)?.problem).toBe(
      "invented_numbers"
    )
    expect(checkDraft("social", draft("Boots at Example Store with free shipping."), WITH_DEAL)?.problem).toBe(
      "unsupported_claim"
    )
    expect(checkDraft("social", draft("See https://evil.example for boots"), WITH_DEAL)?.problem).toBe("invalid_output")
    expect(checkDraft("social", draft("x".repeat(LIMITS.social.textMax + 1)), WITH_DEAL)?.problem).toBe(
      "invalid_output"
    )
    expect(checkDraft("blog", draft("One paragraph only. ".repeat(20), { title: "Boots" }), WITH_DEAL)?.problem).toBe(
      "invalid_output"
    )
    expect(
      checkDraft(
        "email",
        draft("Hello,\n\nBoots at Example Store are worth a look, and the bag too. ".repeat(2)),
        WITH_DEAL
      )?.detail
    ).toMatch(/subject/)
    expect(
      checkDraft("deal_alert", draft("Deal alert: boots at Example Store, 29% below before."), WITH_DEAL)?.detail
    ).toMatch(/current price/)
  })
})

describe("names and money", () => {
  it("shortens titles at a separator or a word boundary, never mid-number", () => {
    expect(shortTitle("PulseFit Wireless Sport Earbuds, sweatproof, for running")).toBe(
      "PulseFit Wireless Sport Earbuds"
    )
    expect(shortTitle("Vistara 55 inch 4K UHD Smart Television 2025 Edition Deluxe", 30)).toBe(
      "Vistara 55 inch 4K UHD Smart"
    )
    expect(storeName("Example Store (CJ)")).toBe("Example Store")
    // as people write prices in each currency (Intl, a locale fitting the currency); no-break spaces as Intl writes them
    expect(money(99, "USD")).toBe("$99.00")
    expect(money(1041.99, "GBP")).toBe("£1,041.99")
    expect(money(153.99, "EUR")).toBe("153,99\u00a0€")
    expect(money(1499.5, "CHF")).toBe("CHF\u00a01'499.50")
    expect(money(1041.99, "SEK")).toBe("1\u00a0041,99\u00a0kr")
    expect(money(12.5, "??")).toBe("12.50 ??")
  })

  it("reads every price it writes back as the same number", () => {
    for (const currency of ["USD", "GBP", "EUR", "CHF", "SEK", "PLN", "DKK", "CAD", "XYZ"]) {
      for (const amount of [0.99, 24, 153.99, 1041.99, 1234567.5]) {
        expect(numbersIn(money(amount, currency)), `${amount} ${currency}`).toEqual([amount])
      }
    }
  })
})
