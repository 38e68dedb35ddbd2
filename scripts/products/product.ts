import { hashString, mixSeed, mulberry32, type Rng } from "../lib/prng.ts"
import type { Store } from "./stores.ts"
import { allLeaves } from "./vocab.ts"
import type { Leaf, ModelRow } from "./vocab-types.ts"

/** The instant the samples describe: feeds are "as of" this moment, history ends before it. */
export const AS_OF = Date.UTC(2026, 10, 15)
const HOUR = 3_600_000
const DESCRIPTION_VARIANTS = 6
const DAY = 24 * HOUR

/**
 * How the feed's price claims relate to the truth (price history):
 * - genuine-sale: sale_price at least 12% under a price that held for the last month
 * - genuine-drop: no sale flag, but the price itself just dropped 13%+
 * - mild-sale: a small (3-8%) sale that is not a deal by the 10% rule
 * - fake-sale: a "was" price the product has not sold at for 35+ days
 * - expired-sale: sale_price whose effective window already ended (current = price)
 * - normal: no claim; the price wanders a little
 */
export type DealClass = "genuine-sale" | "genuine-drop" | "mild-sale" | "fake-sale" | "expired-sale" | "normal"

export interface Product {
  readonly index: number
  readonly store: Store
  readonly id: string
  readonly sku: string
  readonly leaf: Leaf
  readonly brand: string
  readonly model: string
  readonly title: string
  readonly description: string
  readonly link: string
  readonly imageLink: string
  readonly additionalImageLink: string | null
  readonly availability: "in_stock" | "out_of_stock" | "preorder" | "backorder"
  readonly availabilityDate: string | null
  readonly currency: string
  /** The feed's regular price (for a fake sale: the inflated "was" price). */
  readonly price: number
  readonly salePrice: number | null
  readonly saleWindow: string | null
  /** What a shopper pays at AS_OF; the last price in the product's history. */
  readonly current: number
  /** An RRP claim, independent of any sale. */
  readonly rrp: number | null
  readonly gtin: string | null
  readonly mpn: string
  readonly condition: "new" | "refurbished" | "used"
  readonly itemGroupId: string | null
  readonly color: string | null
  readonly size: string | null
  readonly gender: "male" | "female" | null
  readonly ageGroup: "adult" | "kids" | "infant" | null
  readonly dealClass: DealClass
  /** When the current price took effect (genuine/mild sales and drops), ms. */
  readonly changedAt: number | null
  /** Since when the current price has held (fake sales), ms. */
  readonly flatSince: number | null
  readonly rating: number
}

const CURRENCY_FACTOR: Readonly<Record<string, number>> = { USD: 1, GBP: 0.84, EUR: 0.95 }

/** Rounds to the store's price endings; results are canonical 2-decimal doubles, so === compares prices. */
export const roundPrice = (x: number, cents: 0 | 95 | 99): number => {
  if (x < 5) return Math.round(x * 100) / 100
  if (cents === 0) return Math.round(x)
  return Math.round((Math.floor(x) + cents / 100) * 100) / 100
}

const slugify = (s: string): string =>
  s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "")

/** Appends a GS1 check digit (works for UPC-A, EAN-13 and ISBN-13 bodies). */
export const withCheckDigit = (body: string): string => {
  let sum = 0
  for (let i = 0; i < body.length; i++) {
    const d = body.charCodeAt(body.length - 1 - i) - 48
    sum += i % 2 === 0 ? d * 3 : d
  }
  return body + String((10 - (sum % 10)) % 10)
}

const digits = (h: number, n: number): string => String(h % 10 ** n).padStart(n, "0")

const isoHour = (ms: number): string => new Date(ms).toISOString().slice(0, 13) + ":00:00Z"
const isoDay = (ms: number, end: boolean): string =>
  new Date(ms).toISOString().slice(0, 10) + (end ? "T23:59:59Z" : "T00:00:00Z")

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1)

const pickN = (rng: Rng, items: ReadonlyArray<string>, n: number): Array<string> => {
  const start = Math.floor(rng() * items.length)
  const out: Array<string> = []
  for (let i = 0; i < Math.min(n, items.length); i++) out.push(items[(start + i * 2) % items.length])
  return Array.from(new Set(out))
}

const list = (xs: ReadonlyArray<string>, last: string): string =>
  xs.length <= 1 ? xs.join("") : `${xs.slice(0, -1).join(", ")} ${last} ${xs[xs.length - 1]}`

const ageSentence = (a: string): string => {
  if (a.includes("months")) return `Suitable from ${a.replace("+", "")}.`
  if (a === "18+") return "Designed for adult builders and fans, ages 18+."
  if (a.endsWith("+")) return `For ages ${a}.`
  return `Recommended for kids aged ${a}.`
}

const ageGroupOf = (a: string | undefined): Product["ageGroup"] => {
  if (a === undefined) return null
  if (a.includes("months")) return "infant"
  return Number.parseInt(a, 10) < 13 ? "kids" : "adult"
}

const describe = (rng: Rng, leaf: Leaf, title: string, row: ModelRow, gender: string | null): string => {
  const f = pickN(rng, leaf.features, 2)
  const u = pickN(rng, leaf.uses, 3)
  const parts = [`${title}.`, `${cap(f[0])}${f.length > 1 ? ` and ${f[1]}` : ""}.`]
  const form = Math.floor(rng() * 3)
  parts.push(
    form === 0
      ? `Ideal for ${list(u, "and")}.`
      : form === 1
        ? `Built for ${list(u.slice(0, 2), "and")}.`
        : `Perfect for ${list(u, "or")}.`
  )
  const ages = row[4]?.a
  if (ages !== undefined) parts.push(ageSentence(ages))
  if (gender !== null) parts.push(`Available in ${gender.toLowerCase()} sizes.`)
  if (rng() < 0.45) parts.push(`A great gift for ${leaf.gifts[Math.floor(rng() * leaf.gifts.length)]}.`)
  return parts.join(" ")
}

interface StoreMix {
  readonly entries: ReadonlyArray<{
    readonly leaf: Leaf
    readonly leafIndex: number
    readonly models: ReadonlyArray<number>
  }>
  readonly cumulative: ReadonlyArray<number>
  readonly skuBase: number
  readonly link: (slug: string, sku: string) => string
  readonly image: (slug: string, sku: string) => string
}

/** Splits "https://{host}/p/{slug}/{sku}" once so each row is plain concatenation. */
const compileUrl = (template: string): ((slug: string, sku: string) => string) => {
  const parts = template.split(/(\{slug\}|\{sku\})/)
  return (slug, sku) => {
    let out = ""
    for (const part of parts) out += part === "{slug}" ? slug : part === "{sku}" ? sku : part
    return out
  }
}

export interface Generator {
  readonly stores: ReadonlyArray<Store>
  readonly product: (index: number) => Product
}

const mixFor = (store: Store): StoreMix => {
  const entries: Array<StoreMix["entries"][number]> = []
  const cumulative: Array<number> = []
  let total = 0
  allLeaves.forEach((leaf, leafIndex) => {
    if (!store.categories.includes(leaf.category)) return
    if (store.paths !== undefined && !store.paths.some((p) => leaf.path.startsWith(p))) return
    const models = leaf.models
      .map((_, i) => i)
      .filter((i) => store.brands === undefined || store.brands.includes(leaf.models[i][0]))
    if (models.length === 0) return
    entries.push({ leaf, leafIndex, models })
    total += leaf.weight
    cumulative.push(total)
  })
  if (entries.length === 0) throw new Error(`store ${store.key} sells nothing`)
  const skuBase = 10 ** (store.skuDigits - 1) + (hashString(store.key) % 10 ** (store.skuDigits - 2))
  return { entries, cumulative, skuBase, link: compileUrl(store.link), image: compileUrl(store.image) }
}

const pickCumulative = (cumulative: ReadonlyArray<number>, r: number): number => {
  const target = r * cumulative[cumulative.length - 1]
  let i = 0
  while (cumulative[i] <= target) i++
  return i
}

const SHOE_SIZES: Readonly<Record<string, ReadonlyArray<string>>> = {
  "us-male": ["8", "8.5", "9", "9.5", "10", "10.5", "11", "11.5", "12", "13"],
  "us-female": ["6", "6.5", "7", "7.5", "8", "8.5", "9", "9.5", "10"],
  "gb-male": ["UK 7", "UK 8", "UK 8.5", "UK 9", "UK 9.5", "UK 10", "UK 11"],
  "gb-female": ["UK 4", "UK 5", "UK 5.5", "UK 6", "UK 6.5", "UK 7"],
  "eu-male": ["EU 41", "EU 42", "EU 42.5", "EU 43", "EU 44", "EU 45"],
  "eu-female": ["EU 37", "EU 38", "EU 38.5", "EU 39", "EU 40", "EU 41"]
}
const APPAREL_SIZES = ["XS", "S", "M", "L", "XL", "XXL"]

/**
 * Builds a deterministic product generator: product(i) depends only on the
 * seed, the store list and i, so rows can be produced in any order and a
 * benchmark can call it without writing a file.
 *
 * `editions` widens the catalog: the model list holds a few hundred models,
 * so at 1M rows every model would be sold ~2,000 times, which no real
 * catalog resembles. With editions E > 1 each row also draws one of E
 * editions of its model (a series number in the model code, so its own
 * title, GTIN and item group), giving about E times as many models. 1 (the
 * default) leaves every row exactly as before.
 */
export const makeGenerator = (seed: number, stores: ReadonlyArray<Store>, editions = 1): Generator => {
  const mixes = stores.map(mixFor)
  const storeCumulative: Array<number> = []
  let total = 0
  for (const s of stores) storeCumulative.push((total += s.weight))
  const identities = new Map<string, { title: string; slug: string; gtin: string; gtin13: string; mpn: string }>()
  // A handful of description wordings per product, each seeded by the product
  // and its number, so the text never depends on which rows came first.
  const descriptions = new Map<string, Array<string | undefined>>()
  const describeCached = (
    key: string,
    leaf: Leaf,
    title: string,
    row: ModelRow,
    gender: string | null,
    k: number
  ): string => {
    let variants = descriptions.get(key)
    if (variants === undefined) {
      variants = new Array<string | undefined>(DESCRIPTION_VARIANTS)
      descriptions.set(key, variants)
    }
    return (variants[k] ??= describe(mulberry32(hashString(`${key}#${k}`)), leaf, title, row, gender))
  }

  const product = (index: number): Product => {
    const rng = mulberry32(mixSeed(seed, index))
    const si = pickCumulative(storeCumulative, rng())
    const store = stores[si]
    const mix = mixes[si]
    const entry = mix.entries[pickCumulative(mix.cumulative, rng())]
    const leaf = entry.leaf
    const mi = entry.models[Math.floor(rng() * entry.models.length)]
    const row = leaf.models[mi]
    const [brand, modelCode, name, basePrice, opts] = row
    const variant = opts?.v !== undefined ? opts.v[Math.floor(rng() * opts.v.length)] : null
    const v = variant?.[0] ?? ""
    const color = leaf.colors.length > 0 ? leaf.colors[Math.floor(rng() * leaf.colors.length)] : null
    const gender = leaf.sizing !== undefined ? (rng() < 0.5 ? "male" : "female") : null
    const genderWord = gender === "male" ? "Men's" : gender === "female" ? "Women's" : null
    const isBook = leaf.kind === "book"
    const paperback = isBook && rng() < 0.55
    // drawn from its own hash, not rng(), so the rest of the row is the same with or without editions
    const edition = editions > 1 ? 1 + (mixSeed(seed ^ 0x5eed, index) % editions) : 0
    const model = modelCode.replaceAll("{v}", v) + (edition > 0 ? ` S${edition}` : "")
    const nameV = name.replaceAll("{v}", v)

    // Condition: refurbished and used only make sense for electronics.
    const cr = rng()
    const condition =
      leaf.category === "Electronics" && cr < 0.04
        ? "refurbished"
        : leaf.category === "Electronics" && cr < 0.055
          ? "used"
          : "new"

    // Everything that depends only on what is sold (not on the row) is cached:
    // the same product gets the same title, GTIN and MPN in every store.
    const modelIndex = edition > 0 ? `${mi}|${edition}` : `${mi}`
    const identityKey = `${entry.leafIndex}|${modelIndex}|${v}|${color}|${gender}|${paperback}|${condition}`
    let identity = identities.get(identityKey)
    if (identity === undefined) {
      let title = isBook
        ? `${nameV} by ${model} (${paperback ? "Paperback" : "Hardcover"})`
        : `${brand} ${model} ${genderWord !== null ? genderWord + " " : ""}${nameV}${color !== null ? ", " + color : ""}`
      if (condition === "refurbished") title += " (Refurbished)"
      if (condition === "used") title += " (Used - Very Good)"
      const gtinKey = `${brand}|${model}|${nameV}|${color}|${genderWord}|${paperback}`
      const h = hashString(gtinKey)
      const gtin = isBook
        ? withCheckDigit("978" + digits(h, 9))
        : withCheckDigit(digits(h, 6) + digits(hashString(gtinKey + "#"), 5))
      identity = {
        title,
        slug: slugify(title),
        gtin,
        // EAN-13 form of a UPC-A is the same number with a leading zero.
        gtin13: gtin.length === 12 ? "0" + gtin : gtin,
        mpn: isBook
          ? ""
          : `${model.toUpperCase().replace(/[^A-Z0-9]+/g, "")}${color !== null ? "-" + color.slice(0, 3).toUpperCase() : ""}`
      }
      identities.set(identityKey, identity)
    }
    const title = identity.title
    const hasGtin = rng() >= 0.03
    // US feeds write 12-digit UPCs; European ones the equivalent EAN-13.
    const gtinOut = !hasGtin ? null : isBook || store.region !== "us" ? identity.gtin13 : identity.gtin
    const mpn = identity.mpn

    const sku = String(mix.skuBase + index)
    const id = `${store.key}-${sku}`
    const link = mix.link(identity.slug, sku)
    const imageLink = mix.image(identity.slug, sku)
    const additionalImageLink = rng() < 0.5 ? `${imageLink}${imageLink.includes("?") ? "&" : "?"}view=alt` : null

    const ar = rng()
    const availability = ar < 0.05 ? "out_of_stock" : ar < 0.075 ? "preorder" : ar < 0.1 ? "backorder" : "in_stock"
    const availabilityDate =
      availability === "preorder" || availability === "backorder"
        ? isoHour(AS_OF + (5 + Math.floor(rng() * 35)) * DAY + 9 * HOUR)
        : null

    // Prices: list price, per-store variation, currency, condition.
    const conditionFactor = condition === "refurbished" ? 0.78 : condition === "used" ? 0.65 : 1
    const usd = (basePrice + (variant?.[1] ?? 0)) * (paperback ? 0.6 : 1) * conditionFactor * (0.94 + rng() * 0.1)
    let price = roundPrice(usd * CURRENCY_FACTOR[store.currency], store.cents)
    let salePrice: number | null = null
    let saleWindow: string | null = null
    let current = price
    let changedAt: number | null = null
    let flatSince: number | null = null
    let rrp: number | null = null

    const dr = rng()
    const dealClass: DealClass =
      dr < 0.08
        ? "genuine-sale"
        : dr < 0.105
          ? "genuine-drop"
          : dr < 0.155
            ? "fake-sale"
            : dr < 0.235
              ? "mild-sale"
              : dr < 0.255
                ? "expired-sale"
                : "normal"
    const lower = (base: number, off: number): number => {
      const p = roundPrice(base * (1 - off), store.cents)
      return p < base ? p : Math.round((base - 1) * 100) / 100
    }
    if (dealClass === "genuine-sale" || dealClass === "mild-sale") {
      salePrice = lower(price, dealClass === "genuine-sale" ? 0.12 + rng() * 0.28 : 0.03 + rng() * 0.05)
      if (dealClass === "mild-sale" && salePrice < price * 0.905) salePrice = Math.round(price * 0.95 * 100) / 100
      current = salePrice
      if (rng() < 0.5) {
        const start = AS_OF - (1 + Math.floor(rng() * 6)) * DAY
        saleWindow = `${isoDay(start, false)}/${isoDay(AS_OF + (10 + Math.floor(rng() * 35)) * DAY, true)}`
        changedAt = start + (1 + Math.floor(rng() * 20)) * HOUR
      } else {
        changedAt = AS_OF - (12 + Math.floor(rng() * 130)) * HOUR
      }
    } else if (dealClass === "genuine-drop") {
      changedAt = AS_OF - (12 + Math.floor(rng() * 130)) * HOUR
    } else if (dealClass === "fake-sale") {
      // The "sale" price is what it has cost all along; the feed inflates the regular price.
      salePrice = price
      current = price
      price = roundPrice(price * (1.25 + rng() * 0.35), store.cents)
      flatSince = AS_OF - (35 + Math.floor(rng() * 25)) * DAY - Math.floor(rng() * 24) * HOUR
      if (rng() < 0.3) saleWindow = "2026-09-01T00:00:00Z/2026-12-31T23:59:59Z"
      rrp = rng() < 0.5 ? price : roundPrice(price * 1.1, store.cents)
    } else if (dealClass === "expired-sale") {
      salePrice = lower(price, 0.1 + rng() * 0.2)
      saleWindow = "2026-10-01T00:00:00Z/2026-10-31T23:59:59Z"
    }
    if (rrp === null && rng() < 0.3) rrp = roundPrice(price * (1.1 + rng() * 0.25), store.cents)

    const sizes =
      leaf.sizing === "apparel"
        ? APPAREL_SIZES
        : leaf.sizing === "shoe"
          ? SHOE_SIZES[`${store.region}-${gender}`]
          : null
    const size = sizes !== null ? sizes[Math.floor(rng() * sizes.length)] : null
    const hasGroup = variant !== null || color !== null || sizes !== null
    const itemGroupId = hasGroup
      ? `${store.key}-G${hashString(`${entry.leafIndex}|${modelIndex}|${genderWord}`) % 1_000_000}`
      : null

    return {
      index,
      store,
      id,
      sku,
      leaf,
      brand,
      model,
      title,
      description:
        describeCached(identityKey, leaf, title, row, genderWord, Math.floor(rng() * DESCRIPTION_VARIANTS)) +
        (rng() < 0.02 ? `\nIn the box: ${brand} ${model}, quick-start guide.` : ""),
      link,
      imageLink,
      additionalImageLink,
      availability,
      availabilityDate,
      currency: store.currency,
      price,
      salePrice,
      saleWindow,
      current,
      rrp,
      gtin: gtinOut,
      mpn,
      condition,
      itemGroupId,
      color,
      size,
      gender,
      ageGroup: leaf.sizing !== undefined ? "adult" : leaf.category === "Baby" ? "infant" : ageGroupOf(row[4]?.a),
      dealClass,
      changedAt,
      flatSince,
      rating: Math.round((3.6 + rng() * 1.35) * 10) / 10
    }
  }
  return { stores, product }
}
