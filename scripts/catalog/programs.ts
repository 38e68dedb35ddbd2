import { domainToASCII } from "node:url"
import { chance, fillPattern, pick, seeded } from "../lib/prng.ts"
import { CATEGORY_CODES } from "./categories.ts"
import { amazonMarketplaces, ebayMarketplaces } from "./marketplaces.ts"
import { merchants, type MerchantRow } from "./merchants.ts"
import { networksById } from "./networks.ts"
import { smallStores } from "./small-stores.ts"

export interface ProgramRecord {
  readonly network_id: string
  readonly merchant_id: string
  readonly name: string
  readonly domains: ReadonlyArray<string>
  readonly country: string | null
  readonly category: string
  readonly commission_type: "CPS" | "CPA" | "CPL" | "CPC"
  readonly commission_rate: number
  readonly commission_currency: string | null
  readonly cookie_days: number
  readonly status: "active" | "paused" | "closed" | "pending"
  readonly deep_link_allowed: boolean
  readonly epc: number | null
  readonly link_params: Readonly<Record<string, string>>
}

/** How many generated small stores to add to the real merchants. */
export const SMALL_STORE_COUNT = 345

// Impact brands often track on their own host instead of {brand}.sjv.io.
const IMPACT_VANITY: Readonly<Record<string, string>> = {
  "walmart.com": "goto.walmart.com",
  "target.com": "goto.target.com",
  "bestbuy.com": "bestbuy.7tiv.net",
  "homedepot.com": "homedepot.sjv.io",
  "lowes.com": "lowes.pxf.io"
}

const CURRENCY_SYMBOL: Readonly<Record<string, string>> = { $: "USD", "£": "GBP", "€": "EUR" }

const parseRate = (token: string, country: string | null) => {
  const m = /^([$£€]?)([0-9.]+)([LC]?)$/.exec(token)
  if (m === null) throw new Error(`bad rate ${token}`)
  const [, symbol, amount, suffix] = m
  if (symbol === "") return { type: "CPS" as const, rate: Number(amount), currency: null }
  // A "$" in an Australian or Canadian row means that country's dollar.
  const currency =
    symbol === "$" && country === "AU" ? "AUD" : symbol === "$" && country === "CA" ? "CAD" : CURRENCY_SYMBOL[symbol]
  return {
    type: suffix === "L" ? ("CPL" as const) : suffix === "C" ? ("CPC" as const) : ("CPA" as const),
    rate: Number(amount),
    currency
  }
}

const brandSlug = (name: string, fallback: string): string => {
  const s = name.toLowerCase().replace(/[^a-z0-9]+/g, "")
  return s.length >= 3 ? s : fallback
}

const cookieDays = (rng: () => number, usual: number): number =>
  usual <= 1 ? usual : chance(rng, 0.6) ? usual : pick(rng, [7, 14, 30, 45, 60, 90])

/** Builds every programme, deterministic; throws on duplicate ids. */
export const buildPrograms = (): Array<ProgramRecord> => {
  const out: Array<ProgramRecord> = []
  const usedIds = new Map<string, Set<string>>()

  const merchantId = (network: string, pattern: string, rng: () => number): string => {
    const used = usedIds.get(network) ?? new Set<string>()
    usedIds.set(network, used)
    for (;;) {
      const id = fillPattern(rng, pattern)
      if (!used.has(id)) {
        used.add(id)
        return id
      }
    }
  }

  const add = (row: MerchantRow, placement: string, extraLink: Record<string, string> = {}) => {
    const [name, domainList, country, code] = row
    const [networkId, rateToken, statusToken] = placement.split(":")
    const network = networksById.get(networkId)
    if (network === undefined) throw new Error(`${name}: unknown network ${networkId}`)
    const rng = seeded(`${networkId}|${name}|${country}`)
    const domains = domainList.split(" ").map((d) => domainToASCII(d))
    const mid = merchantId(networkId, network.mid, rng)
    const link: Record<string, string> = {}
    for (const [key, pattern] of Object.entries(network.link)) {
      if (pattern === "=mid") link[key] = mid
      else if (pattern === "=impact-host")
        link[key] = IMPACT_VANITY[domains[0]] ?? `${brandSlug(name, `brand${mid}`)}.${pick(rng, ["sjv.io", "pxf.io"])}`
      else if (!pattern.startsWith("=")) link[key] = fillPattern(rng, pattern)
    }
    Object.assign(link, extraLink)
    const { type, rate, currency } = parseRate(rateToken, country)
    // Every programme on a closed network is closed with it.
    const status = network.status === "closed" ? "closed" : ((statusToken ?? "active") as ProgramRecord["status"])
    const hasEpc = (status === "active" || status === "paused") && chance(rng, 0.7)
    out.push({
      network_id: networkId,
      merchant_id: mid,
      name,
      domains,
      country,
      category: CATEGORY_CODES[code],
      commission_type: type,
      commission_rate: rate,
      commission_currency: currency,
      cookie_days: cookieDays(rng, network.cookie),
      status,
      deep_link_allowed: network.deep_link_template !== null && chance(rng, 0.94),
      epc: hasEpc ? Math.round((1 + rng() * rng() * 120) * 100) / 100 : null,
      link_params: link
    })
  }

  const addRow = (row: MerchantRow) => {
    for (const placement of row[4].split(" ")) add(row, placement)
  }

  for (const [domain, country, marketplaceId, tag] of amazonMarketplaces) {
    const name = `Amazon.${domain.slice("amazon.".length)}`
    usedIds.set("amazon-associates", new Set([...(usedIds.get("amazon-associates") ?? []), marketplaceId]))
    out.push({
      network_id: "amazon-associates",
      merchant_id: marketplaceId,
      name,
      domains: [domain],
      country,
      category: "Marketplace",
      commission_type: "CPS",
      commission_rate: 3,
      commission_currency: null,
      cookie_days: 1,
      status: "active",
      deep_link_allowed: true,
      epc: null,
      link_params: { tag }
    })
  }
  for (const [domain, country, rotationId] of ebayMarketplaces) {
    out.push({
      network_id: "ebay-partner-network",
      merchant_id: `EBAY-${country}`,
      name: `eBay ${country}`,
      domains: [domain],
      country,
      category: "Marketplace",
      commission_type: "CPS",
      commission_rate: 2.5,
      commission_currency: null,
      cookie_days: 1,
      status: "active",
      deep_link_allowed: true,
      epc: null,
      link_params: { rotationId }
    })
  }
  for (const row of merchants) addRow(row)
  const taken = new Set(merchants.flatMap((m) => m[1].split(" ")))
  for (const row of smallStores(SMALL_STORE_COUNT, taken)) addRow(row)

  const ids = new Set<string>()
  for (const p of out) {
    const id = `${p.network_id}:${p.merchant_id}`
    if (ids.has(id)) throw new Error(`duplicate programme ${id}`)
    ids.add(id)
  }
  return out
}
