import { XMLParser } from "fast-xml-parser"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { afterAll, describe, expect, it } from "vitest"
import { writeProducts } from "../scripts/generate-products.ts"
import { selectStores } from "../scripts/products/stores.ts"

// Invariants of the committed sample catalog (data/samples), checked on the
// files themselves rather than on the generator's internals, plus the
// generator's determinism and streaming speed.

const dir = join(import.meta.dirname, "..", "data", "samples")
const AS_OF = Date.UTC(2026, 10, 15)
const DAY = 86_400_000

type Json = Record<string, any>
const jsonl = (file: string): Array<Json> =>
  readFileSync(join(dir, file), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Json)

/** RFC 4180 reader: quoted fields may hold commas, doubled quotes and line breaks. */
const parseCsv = (text: string): Array<Array<string>> => {
  const rows: Array<Array<string>> = []
  let row: Array<string> = []
  let field = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') ((field += '"'), i++)
      else if (ch === '"') quoted = false
      else field += ch
    } else if (ch === '"') quoted = true
    else if (ch === ",") (row.push(field), (field = ""))
    else if (ch === "\n") (row.push(field), rows.push(row), (row = []), (field = ""))
    else field += ch
  }
  if (field !== "" || row.length > 0) (row.push(field), rows.push(row))
  return rows
}

const byHeader = (rows: Array<Array<string>>): Array<Record<string, string>> =>
  rows.slice(1).map((r) => Object.fromEntries(rows[0].map((h, i) => [h, r[i]])))

const amount = (price: string): number => Number(price.split(" ")[0])

/** What a shopper pays at AS_OF according to a GMC row: sale_price when its window (if any) is open. */
const gmcCurrent = (r: Record<string, string>): number => {
  if (!r.sale_price) return amount(r.price)
  if (!r.sale_price_effective_date) return amount(r.sale_price)
  const [from, to] = r.sale_price_effective_date.split("/").map((d) => Date.parse(d))
  return from <= AS_OF && AS_OF <= to ? amount(r.sale_price) : amount(r.price)
}

interface FeedProduct {
  readonly key: string
  readonly link: string
  readonly currency: string
  readonly current: number
  /** The feed claims a higher earlier price (sale_price, product_price_old or rrp_price). */
  readonly claimsDiscount: boolean
}

const networks = jsonl("networks.jsonl")
const programs = jsonl("programs.jsonl")
const networkById = new Map(networks.map((n) => [n.id as string, n]))

const loadProducts = (): Record<string, Array<FeedProduct>> => {
  const tsv = readFileSync(join(dir, "products/us-electronics-and-home.tsv"), "utf8")
    .split("\n")
    .filter((l) => l !== "")
  const header = tsv[0].split("\t")
  const us = tsv.slice(1).map((line) => {
    const cells = line.split("\t")
    if (cells.length !== header.length) throw new Error(`TSV row with ${cells.length} cells: ${line.slice(0, 80)}`)
    const r = Object.fromEntries(header.map((h, i) => [h, cells[i]]))
    return {
      key: `us-electronics:${r.id}`,
      link: r.link,
      currency: r.price.split(" ")[1],
      current: gmcCurrent(r),
      claimsDiscount: r.sale_price !== "" && gmcCurrent(r) < amount(r.price)
    }
  })
  const xml = new XMLParser({
    ignoreAttributes: true,
    parseTagValue: false,
    isArray: (name) => name === "item" || name === "g:shipping"
  }).parse(readFileSync(join(dir, "products/uk-lifestyle.xml"), "utf8")) as Json
  const uk = (xml.rss.channel.item as Array<Json>).map((item) => {
    const r: Record<string, string> = {}
    for (const [k, v] of Object.entries(item)) if (typeof v === "string") r[k.replace(/^g:/, "")] ??= v
    return {
      key: `uk-lifestyle:${r.id}`,
      link: r.link,
      currency: r.price.split(" ")[1],
      current: gmcCurrent(r),
      claimsDiscount: r.sale_price !== undefined && gmcCurrent(r) < amount(r.price)
    }
  })
  const eu = byHeader(parseCsv(gunzipSync(readFileSync(join(dir, "products/eu-awin.csv.gz"))).toString("utf8"))).map(
    (r) => ({
      key: `eu-awin:${r.aw_product_id}`,
      link: r.merchant_deep_link,
      currency: r.currency,
      current: Number(r.search_price),
      claimsDiscount:
        Number(r.product_price_old || 0) > Number(r.search_price) || Number(r.rrp_price || 0) > Number(r.search_price)
    })
  )
  return { "us-electronics": us, "uk-lifestyle": uk, "eu-awin": eu }
}

const feeds = loadProducts()
const allProducts = Object.values(feeds).flat()

describe("networks.jsonl", () => {
  it("has 122 networks with unique slug ids and every field", () => {
    expect(networks).toHaveLength(122)
    expect(new Set(networks.map((n) => n.id)).size).toBe(122)
    for (const n of networks) {
      expect(n.id).toMatch(/^[a-z0-9-]+$/)
      expect(["active", "paused", "closed"]).toContain(n.status)
      expect(["H", "M", "U"]).toContain(n.confidence)
      expect(n.website).toMatch(/^https:\/\//)
      expect(Array.isArray(n.click_hosts) && Array.isArray(n.unwrap_params) && Array.isArray(n.regions)).toBe(true)
      expect(n.regions.length).toBeGreaterThan(0)
      expect(typeof n.account_params).toBe("object")
      if (n.successor_id !== null) expect(networkById.has(n.successor_id)).toBe(true)
      if (n.status === "active" && n.deep_link_template !== null) expect(n.subid_param).toEqual(expect.any(String))
    }
  })

  it("marks ShareASale closed with Awin as successor", () => {
    expect(networkById.get("shareasale")).toMatchObject({ status: "closed", successor_id: "awin" })
  })
})

describe("programs.jsonl", () => {
  it("has at least 600 well-formed programmes on known networks", () => {
    expect(programs.length).toBeGreaterThanOrEqual(600)
    expect(new Set(programs.map((p) => `${p.network_id}:${p.merchant_id}`)).size).toBe(programs.length)
    const problems = programs.filter(
      (p) =>
        !networkById.has(p.network_id) ||
        typeof p.merchant_id !== "string" ||
        p.domains.length === 0 ||
        !p.domains.every((d: string) => /^[a-z0-9.-]+$/.test(d)) ||
        !["CPS", "CPA", "CPL", "CPC"].includes(p.commission_type) ||
        typeof p.commission_rate !== "number" ||
        !["active", "paused", "closed", "pending"].includes(p.status) ||
        (p.commission_currency === null) !== (p.commission_type === "CPS") ||
        !Number.isInteger(p.cookie_days) ||
        typeof p.deep_link_allowed !== "boolean" ||
        !(p.epc === null || typeof p.epc === "number") ||
        typeof p.category !== "string" ||
        !(p.country === null || /^[A-Z]{2}$/.test(p.country))
    )
    expect(problems.map((p) => `${p.network_id}:${p.merchant_id}`)).toEqual([])
  })

  it("resolves every placeholder of every active programme's template", () => {
    const unresolved: Array<string> = []
    for (const p of programs.filter((p) => p.status === "active")) {
      const n = networkById.get(p.network_id)!
      if (n.deep_link_template === null) continue
      for (const [, name] of (n.deep_link_template as string).matchAll(/\{([^{}]+)\}/g)) {
        const known = ["sub", "url", "enc(url)"].includes(name) || name in n.account_params || name in p.link_params
        if (!known) unresolved.push(`${p.network_id}:${p.merchant_id} {${name}}`)
      }
    }
    expect(unresolved).toEqual([])
  })

  it("has one Amazon Associates programme per marketplace, each with its own tag", () => {
    const amazon = programs.filter((p) => p.network_id === "amazon-associates")
    const domains = amazon.flatMap((p) => p.domains)
    for (const d of [
      "amazon.com",
      "amazon.co.uk",
      "amazon.de",
      "amazon.fr",
      "amazon.it",
      "amazon.es",
      "amazon.ca",
      "amazon.co.jp",
      "amazon.com.au"
    ]) {
      expect(domains).toContain(d)
    }
    expect(new Set(amazon.map((p) => p.link_params.tag)).size).toBe(amazon.length)
  })

  it("closes every ShareASale programme and keeps an active Awin one for the same domains", () => {
    const sas = programs.filter((p) => p.network_id === "shareasale")
    expect(sas.length).toBeGreaterThan(10)
    for (const p of sas) {
      expect(p.status).toBe("closed")
      expect(
        programs.some((q) => q.network_id === "awin" && q.status === "active" && q.domains.join() === p.domains.join())
      ).toBe(true)
    }
  })

  it("covers the matching edge cases: subdomains, myshopify, IDN, multi-network merchants", () => {
    const domains = new Set(programs.flatMap((p) => p.domains as Array<string>))
    expect([...domains].filter((d) => d.endsWith(".myshopify.com")).length).toBeGreaterThan(5)
    expect([...domains].some((d) => d.split(".").some((l) => l.startsWith("xn--")))).toBe(true)
    const sub = programs.find((p) => p.domains.includes("store.dji.com"))
    const main = programs.find((p) => p.domains.includes("dji.com"))
    expect(sub && main && sub.network_id !== main.network_id).toBe(true)
    const adidas = programs.filter((p) => p.domains.includes("adidas.com"))
    expect(new Set(adidas.map((p) => p.network_id)).size).toBeGreaterThanOrEqual(3)
    expect(new Set(adidas.map((p) => p.commission_rate)).size).toBeGreaterThanOrEqual(3)
    expect(programs.some((p) => p.status === "paused") && programs.some((p) => p.status === "pending")).toBe(true)
  })
})

describe("product feeds", () => {
  it("hold at least 5,000 products with ids unique per feed", () => {
    expect(allProducts.length).toBeGreaterThanOrEqual(5000)
    for (const items of Object.values(feeds)) expect(new Set(items.map((p) => p.key)).size).toBe(items.length)
    expect(new Set(feeds["us-electronics"].map((p) => p.currency))).toEqual(new Set(["USD"]))
    expect(new Set(feeds["uk-lifestyle"].map((p) => p.currency))).toEqual(new Set(["GBP"]))
    expect(new Set(feeds["eu-awin"].map((p) => p.currency))).toEqual(new Set(["EUR"]))
  })

  it("link every product to a store that has a programme (exact host or a parent)", () => {
    const domains = new Set(programs.flatMap((p) => p.domains as Array<string>))
    const orphans = allProducts.filter((p) => {
      const labels = new URL(p.link).hostname.split(".")
      return !labels.some((_, i) => i < labels.length - 1 && domains.has(labels.slice(i).join(".")))
    })
    expect(orphans.map((p) => p.link)).toEqual([])
  })
})

describe("price-history.csv", () => {
  const lines = readFileSync(join(dir, "price-history.csv"), "utf8")
    .split("\n")
    .filter((l) => l !== "")
  const series = new Map<string, Array<[number, number, string]>>()
  for (const line of lines.slice(1)) {
    const [key, at, price, currency] = line.split(",")
    const list = series.get(key) ?? []
    list.push([Date.parse(at), Number(price), currency])
    series.set(key, list)
  }

  it("has 10-40 changes per product over the 90 days before 2026-11-15, ending at the feed's current price", () => {
    expect(lines[0]).toBe("product_key,observed_at,price,currency")
    expect(series.size).toBe(allProducts.length)
    // Plain checks, one expect at the end: 138k expect() calls would take seconds.
    const problems: Array<string> = []
    for (const p of allProducts) {
      const s = series.get(p.key)
      if (s === undefined) {
        problems.push(`${p.key}: no history`)
        continue
      }
      if (s.length < 10 || s.length > 40) problems.push(`${p.key}: ${s.length} observations`)
      s.forEach(([at, price, currency], i) => {
        if (!(at >= AS_OF - 90 * DAY && at < AS_OF))
          problems.push(`${p.key}: ${new Date(at).toISOString()} outside the 90 days`)
        if (currency !== p.currency) problems.push(`${p.key}: currency ${currency}`)
        if (i > 0 && !(at > s[i - 1][0] && price !== s[i - 1][1]))
          problems.push(`${p.key}: row ${i} repeats a time or price`)
      })
      if (s[s.length - 1][1] !== p.current)
        problems.push(`${p.key}: ends at ${s[s.length - 1][1]}, feed says ${p.current}`)
    }
    expect(problems.slice(0, 10)).toEqual([])
  })

  it("makes about 10% genuine deals and shows some feed discounts are fake", () => {
    let genuine = 0
    let fake = 0
    for (const p of allProducts) {
      const s = series.get(p.key)!
      const [at, current] = s[s.length - 1]
      let low = Infinity
      for (let i = s.length - 2; i >= 0; i--) {
        low = Math.min(low, s[i][1])
        if (s[i][0] <= at - 30 * DAY) break
      }
      if (current <= 0.9 * low) genuine++
      // Claims a discount, yet has sold at today's price for the whole past month.
      if (p.claimsDiscount && at <= AS_OF - 30 * DAY) fake++
    }
    expect(genuine / allProducts.length).toBeGreaterThan(0.08)
    expect(genuine / allProducts.length).toBeLessThan(0.14)
    expect(fake / allProducts.length).toBeGreaterThan(0.02)
  })
})

describe("generate-products", () => {
  const tmp = mkdtempSync(join(tmpdir(), "samples-test-"))
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))

  it("is deterministic: same seed, same bytes, in every format", async () => {
    for (const [format, ext, stores] of [
      ["gmc-tsv", "tsv", "us"],
      ["gmc-xml", "xml", "gb"],
      ["awin-csv", "csv.gz", "eu"]
    ] as const) {
      const files = ["a", "b", "c"].map((n) => join(tmp, `${n}.${ext}`))
      for (const [i, out] of files.entries())
        await writeProducts({ format, count: 1000, seed: i === 2 ? 43 : 42, out, stores: selectStores(stores) })
      const [a, b, c] = files.map((f) => readFileSync(f))
      expect(a.equals(b), format).toBe(true)
      expect(a.equals(c), format).toBe(false)
    }
  })

  // How fast it streams is a measurement for the README, not a test assertion.
  it("streams 20,000 TSV rows, one line each after the header", async () => {
    const out = join(tmp, "big.tsv")
    await writeProducts({ format: "gmc-tsv", count: 20_000, seed: 7, out, stores: selectStores("us,gb,eu") })
    const lines = readFileSync(out, "utf8").split("\n")
    expect(lines.length).toBe(20_002)
    expect(lines.at(-1)).toBe("")
    const columns = lines[0]!.split("\t").length
    expect(lines.slice(1, -1).every((line) => line.split("\t").length === columns)).toBe(true)
  })
})
