import type { MerchantRow } from "./merchants.ts"
import { chance, int, pick, seeded, weighted } from "../lib/prng.ts"

// Plausible independent stores to bring the programme catalog to real scale.
// Names are made up from word lists (no real brand is implied); the mix
// mirrors what a publisher sees: many small CPS programmes, a share of them
// on two networks, Shopify stores on their myshopify.com host, brands whose
// shop subdomain runs a different programme from the main site, and US
// ShareASale programmes that moved to Awin.

const WORDS: Readonly<Record<string, readonly [ReadonlyArray<string>, ReadonlyArray<string>]>> = {
  elec: [
    ["Volt", "Pixel", "Circuit", "Echo", "Signal", "Nova", "Static", "Amp", "Wave", "Ohm"],
    ["Audio", "Gadgets", "Tech", "Electronics", "Sound", "Devices", "Labs", "Gear"]
  ],
  home: [
    ["Hearth", "Oak", "Linen", "Maple", "Copper", "Nest", "Willow", "Harbor", "Juniper", "Stone"],
    ["Home", "Kitchen", "Living", "Interiors", "Cookware", "House", "Goods"]
  ],
  sport: [
    ["Summit", "Trail", "Stride", "Peak", "Ridge", "Tempo", "Pace", "Alpine", "Canyon", "Swift"],
    ["Outfitters", "Running", "Sports", "Outdoors", "Athletics", "Cycles", "Gear Co"]
  ],
  toys: [
    ["Little", "Tiny", "Happy", "Clever", "Puzzle", "Rocket", "Wonder", "Sprout", "Marble", "Kite"],
    ["Toys", "Playthings", "Games", "Kids", "Learning", "Toy Box"]
  ],
  beauty: [
    ["Glow", "Bloom", "Petal", "Velvet", "Pure", "Luma", "Rose", "Silk", "Dew", "Aura"],
    ["Beauty", "Skincare", "Cosmetics", "Botanicals", "Apothecary"]
  ],
  fashion: [
    ["Thread", "Loom", "Indigo", "Northbound", "Urban", "Atlas", "Marlow", "Fable", "Ember", "Hollow"],
    ["Clothing", "Apparel", "Supply", "Wear", "Boutique", "Denim Co"]
  ],
  books: [
    ["Paper", "Chapter", "Ink", "Quill", "Margin", "Folio", "Lantern", "Story"],
    ["Books", "Bookshop", "Press", "Reads"]
  ],
  garden: [
    ["Green", "Fern", "Meadow", "Bramble", "Sage", "Orchard", "Thistle", "Clover"],
    ["Garden", "Gardens", "Growers", "Nursery", "Seeds"]
  ],
  baby: [
    ["Bumble", "Cuddle", "Honey", "Pebble", "Button", "Lullaby", "Acorn", "Duckling"],
    ["Baby", "Babies", "Nursery", "Tots", "Kids Co"]
  ],
  pets: [
    ["Waggy", "Furry", "Paw", "Whisker", "Loyal", "Barkley", "Fetch", "Scout"],
    ["Pets", "Paws", "Pet Supply", "Tails", "Hound Co"]
  ],
  tools: [
    ["Iron", "Forge", "Anvil", "Steel", "Torque", "Granite", "Bolt", "Timber"],
    ["Tools", "Supply", "Hardware", "Workshop", "Tool Co"]
  ],
  sw: [
    ["Cloud", "Stack", "Pulse", "Orbit", "Vector", "Beacon", "Lumen", "Relay"],
    ["Apps", "Software", "HQ", "Hosting", "Labs"]
  ],
  edu: [
    ["Learn", "Skill", "Mind", "Study", "Scholar", "Tutor"],
    ["Academy", "Courses", "Hub", "School", "Path"]
  ],
  travel: [
    ["Wander", "Roam", "Voyage", "Compass", "Nomad", "Horizon"],
    ["Trips", "Travel", "Tours", "Stays", "Journeys"]
  ]
}

const TLD: Readonly<Record<string, string>> = {
  US: "com",
  GB: "co.uk",
  DE: "de",
  FR: "fr",
  NL: "nl",
  ES: "es",
  IT: "it",
  AU: "com.au",
  CA: "ca",
  SE: "se",
  JP: "jp",
  IN: "in",
  BR: "com.br"
}

// Networks a small merchant in that country would plausibly use, with weights.
const NETWORKS_BY_COUNTRY: Readonly<Record<string, ReadonlyArray<readonly [string, number]>>> = {
  US: [
    ["awin", 15],
    ["cj", 10],
    ["impact", 14],
    ["rakuten", 4],
    ["pepperjam", 4],
    ["flexoffers", 5],
    ["avantlink", 4],
    ["refersion", 5],
    ["goaffpro", 3],
    ["uppromote", 3],
    ["linkconnector", 2],
    ["brandreward", 1],
    ["maxbounty", 1]
  ],
  GB: [
    ["awin", 30],
    ["webgains", 8],
    ["tradedoubler", 4],
    ["partnerize", 5],
    ["affiliate-future", 2],
    ["paid-on-results", 1],
    ["optimise", 2],
    ["impact", 5],
    ["kelkoo", 1]
  ],
  DE: [
    ["awin", 15],
    ["adcell", 6],
    ["belboon", 3],
    ["tradedoubler", 3],
    ["webgains", 3],
    ["tradetracker", 2],
    ["financeads", 1]
  ],
  FR: [
    ["awin", 10],
    ["effiliation", 5],
    ["kwanko", 4],
    ["timeone", 3],
    ["tradedoubler", 2],
    ["kelkoo", 1]
  ],
  NL: [
    ["tradetracker", 6],
    ["daisycon", 6],
    ["awin", 5]
  ],
  ES: [
    ["awin", 8],
    ["tradedoubler", 3],
    ["webgains", 3],
    ["admitad", 2]
  ],
  IT: [
    ["awin", 8],
    ["tradedoubler", 3],
    ["webgains", 3],
    ["admitad", 2]
  ],
  SE: [
    ["adtraction", 8],
    ["adrecord", 5],
    ["addrevenue", 3]
  ],
  AU: [
    ["commission-factory", 8],
    ["affiliate-gateway", 2],
    ["impact", 3]
  ],
  CA: [
    ["cj", 5],
    ["rakuten", 4],
    ["impact", 5],
    ["flexoffers", 2]
  ],
  JP: [
    ["a8-net", 5],
    ["valuecommerce", 4],
    ["moshimo", 2],
    ["accesstrade", 2]
  ],
  IN: [
    ["cuelinks", 3],
    ["vcommission", 3],
    ["admitad", 2]
  ],
  BR: [
    ["lomadee", 2],
    ["kwanko", 1],
    ["admitad", 1]
  ]
}
const DIGITAL_NETWORKS: ReadonlyArray<readonly [string, number]> = [
  ["impact", 6],
  ["partnerstack", 5],
  ["clickbank", 3],
  ["digistore24", 2],
  ["jvzoo", 1],
  ["hotmart", 1],
  ["awin", 3]
]

const COUNTRIES = ["US", "GB", "DE", "FR", "NL", "ES", "IT", "SE", "AU", "CA", "JP", "IN", "BR"]
const COUNTRY_WEIGHTS = [42, 20, 10, 5, 4, 3, 3, 3, 3, 3, 2, 1, 1]
const CATEGORY_CODES = Object.keys(WORDS)
const CATEGORY_WEIGHTS = [10, 10, 9, 7, 8, 10, 3, 5, 4, 5, 4, 4, 3, 2]

const slug = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, "")

const cpsRate = (rng: () => number, code: string): string => {
  const [lo, hi] = (
    {
      elec: [2, 6],
      books: [3, 8],
      tools: [3, 8],
      travel: [3, 8],
      pets: [3, 10],
      baby: [4, 10],
      home: [4, 10],
      toys: [5, 10],
      sport: [5, 12],
      garden: [5, 12],
      beauty: [6, 15],
      fashion: [6, 15],
      edu: [10, 30],
      sw: [20, 40]
    } as Record<string, [number, number]>
  )[code]
  const r = lo + rng() * (hi - lo)
  return String(chance(rng, 0.5) ? Math.round(r) : Math.round(r * 2) / 2)
}

const SYMBOL: Readonly<Record<string, string>> = { US: "$", CA: "$", AU: "$", GB: "£" }

const rate = (rng: () => number, code: string, country: string, network: string): string => {
  if (network === "kelkoo") return `${SYMBOL[country] ?? "€"}${(0.2 + rng() * 0.3).toFixed(2)}C`
  if ((code === "sw" || code === "edu") && chance(rng, 0.45)) {
    return chance(rng, 0.3)
      ? `${SYMBOL[country] ?? "€"}${int(rng, 2, 12)}L`
      : `${SYMBOL[country] ?? "€"}${int(rng, 2, 30) * 5}`
  }
  return cpsRate(rng, code)
}

const status = (rng: () => number): string => weighted(rng, ["", ":paused", ":pending", ":closed"], [86, 7, 4, 3])

/** Deterministic list of small merchants in the MerchantRow format. */
export const smallStores = (count: number, taken: ReadonlySet<string>): Array<MerchantRow> => {
  const rng = seeded("small-stores-v1")
  const domains = new Set(taken)
  const rows: Array<MerchantRow> = []
  let shareasale = 0
  let shopify = 0
  let subdomain = 0
  while (rows.length < count) {
    const code = weighted(rng, CATEGORY_CODES, CATEGORY_WEIGHTS)
    const country = weighted(rng, COUNTRIES, COUNTRY_WEIGHTS)
    const [first, second] = WORDS[code]
    const name = `${pick(rng, first)} ${pick(rng, second)}`
    const base = slug(name)
    const digital = code === "sw" || code === "edu" || code === "travel"
    const pool = digital ? DIGITAL_NETWORKS : NETWORKS_BY_COUNTRY[country]
    const main = weighted(
      rng,
      pool.map((p) => p[0]),
      pool.map((p) => p[1])
    )
    // The special shapes come first so every run has enough of each.
    if (country === "US" && !digital && shareasale < 22) {
      const domain = `${base}.com`
      if (domains.has(domain)) continue
      domains.add(domain)
      shareasale++
      const r = cpsRate(rng, code)
      rows.push([name, domain, country, code, `shareasale:${r} awin:${r}`])
      continue
    }
    if (!digital && shopify < 14 && chance(rng, 0.25)) {
      const domain = `${base}${chance(rng, 0.5) ? "" : "-" + pick(rng, ["store", "shop", "co"])}.myshopify.com`
      if (domains.has(domain)) continue
      domains.add(domain)
      shopify++
      const network = weighted(rng, ["goaffpro", "uppromote", "refersion", "awin"], [3, 3, 2, 2])
      rows.push([name, domain, country, code, `${network}:${rate(rng, code, country, network)}`])
      continue
    }
    const domain = `${base}.${TLD[country]}`
    if (domains.has(domain)) continue
    if (!digital && subdomain < 8 && chance(rng, 0.1)) {
      // Same brand, two programmes: the shop subdomain on one network, the
      // main site (subscriptions, gift cards) on another.
      const shopHost = `${pick(rng, ["shop", "store"])}.${domain}`
      const other = weighted(
        rng,
        pool.map((p) => p[0]).filter((n) => n !== main),
        pool.filter((p) => p[0] !== main).map((p) => p[1])
      )
      domains.add(domain)
      subdomain++
      rows.push([`${name} Shop`, shopHost, country, code, `${main}:${rate(rng, code, country, main)}${status(rng)}`])
      rows.push([name, domain, country, code, `${other}:${rate(rng, code, country, other)}`])
      continue
    }
    domains.add(domain)
    let placements = `${main}:${rate(rng, code, country, main)}${status(rng)}`
    if (chance(rng, 0.18)) {
      const rest = pool.filter((p) => p[0] !== main)
      const second = weighted(
        rng,
        rest.map((p) => p[0]),
        rest.map((p) => p[1])
      )
      placements += ` ${second}:${rate(rng, code, country, second)}${status(rng)}`
    }
    rows.push([name, domain, country, code, placements])
  }
  return rows
}
