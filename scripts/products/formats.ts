import { hashString } from "../lib/prng.ts"
import type { Product } from "./product.ts"
import { allLeaves } from "./vocab.ts"

// The three feed encodings. Each encoder is header + one string per product +
// footer, so the writer can stream any number of rows.
export type FeedFormat = "gmc-tsv" | "gmc-xml" | "awin-csv"

export interface Encoder {
  readonly header: string
  readonly row: (p: Product) => string
  readonly footer: string
}

export interface EncoderContext {
  /** Channel title (XML). */
  readonly title: string
  /** Channel link (XML). */
  readonly channelLink: string
  /** Awin merchant id (programme merchant_id) per store key. */
  readonly awinMid: (storeKey: string) => string
  /** Our Awin publisher id, for aw_deep_link. */
  readonly awinPubId: string
}

export const GMC_COLUMNS = [
  "id",
  "title",
  "description",
  "link",
  "image_link",
  "additional_image_link",
  "availability",
  "availability_date",
  "price",
  "sale_price",
  "sale_price_effective_date",
  "google_product_category",
  "product_type",
  "brand",
  "gtin",
  "mpn",
  "identifier_exists",
  "condition",
  "item_group_id",
  "color",
  "size",
  "gender",
  "age_group",
  "shipping",
  "custom_label_0"
] as const

export const AWIN_COLUMNS = [
  "aw_deep_link",
  "product_name",
  "aw_product_id",
  "merchant_product_id",
  "merchant_image_url",
  "description",
  "merchant_category",
  "search_price",
  "merchant_name",
  "merchant_id",
  "category_name",
  "category_id",
  "aw_image_url",
  "currency",
  "store_price",
  "delivery_cost",
  "merchant_deep_link",
  "language",
  "last_updated",
  "display_price",
  "data_feed_id",
  "brand_name",
  "brand_id",
  "colour",
  "product_short_description",
  "condition",
  "product_model",
  "model_number",
  "keywords",
  "promotional_text",
  "product_type",
  "rrp_price",
  "saving",
  "savings_percent",
  "product_price_old",
  "in_stock",
  "stock_quantity",
  "is_for_sale",
  "ean",
  "isbn",
  "upc",
  "mpn",
  "product_GTIN",
  "merchant_thumb_url",
  "large_image",
  "average_rating",
  "rating"
] as const

const money = (n: number, currency: string): string => `${n.toFixed(2)} ${currency}`

const LEGACY: Readonly<Record<string, string>> = {
  in_stock: "in stock",
  out_of_stock: "out of stock",
  preorder: "preorder",
  backorder: "backorder"
}

type ShippingGroup = readonly [country: string, region: string, service: string, price: number]

/** Free shipping over a threshold; every 5th-7th product also offers express. */
export const shippingOf = (p: Product): Array<ShippingGroup> => {
  const country = p.store.country
  if (p.store.region === "us") {
    const out: Array<ShippingGroup> = [[country, "", "Standard", p.current >= 35 ? 0 : 5.99]]
    if (p.index % 7 === 0) out.push([country, "", "Express 2-Day", 14.99])
    return out
  }
  if (p.store.region === "gb") {
    const out: Array<ShippingGroup> = [[country, "", "Standard", p.current >= 40 ? 0 : 3.99]]
    if (p.index % 5 === 0) out.push([country, "", "Next Day", 5.99])
    return out
  }
  return [[country, "", "Standard", p.current >= 29 ? 0 : 4.95]]
}

const orEmpty = (s: string | null): string => (s === null ? "" : s)

// Only descriptions can hold a line break; every other value is generated
// without tabs or newlines, so it is written as is.
const tsvRow = (p: Product): string => {
  const groups = shippingOf(p)
  let shipping = ""
  for (const [c, r, s, price] of groups)
    shipping += `${shipping === "" ? "" : ","}${c}:${r}:${s}:${money(price, p.currency)}`
  const description = p.description.includes("\n") ? p.description.replace(/[\t\r\n]+/g, " ") : p.description
  return (
    `${p.id}\t${p.title}\t${description}\t${p.link}\t${p.imageLink}\t${orEmpty(p.additionalImageLink)}\t` +
    `${p.store.legacyAvailability === true ? LEGACY[p.availability] : p.availability}\t${orEmpty(p.availabilityDate)}\t` +
    `${money(p.price, p.currency)}\t${p.salePrice === null ? "" : money(p.salePrice, p.currency)}\t${orEmpty(p.saleWindow)}\t` +
    `${p.leaf.gpc}\t${p.leaf.path}\t${p.brand}\t${orEmpty(p.gtin)}\t${p.mpn}\t${p.gtin === null ? "no" : "yes"}\t${p.condition}\t` +
    `${orEmpty(p.itemGroupId)}\t${orEmpty(p.color)}\t${orEmpty(p.size)}\t${orEmpty(p.gender)}\t${orEmpty(p.ageGroup)}\t${shipping}\t${p.store.name}\n`
  )
}

const xmlEscape = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

const el = (name: string, value: string | null): string =>
  value === null || value === "" ? "" : `    <${name}>${xmlEscape(value)}</${name}>\n`

const xmlRow = (p: Product): string => {
  const style = p.store.xml ?? "plain"
  const pre = style === "prefixed" ? "g:" : ""
  const description =
    style === "cdata"
      ? `    <description><![CDATA[${p.description}]]></description>\n`
      : el(`${pre}description`, p.description)
  const shipping = shippingOf(p)
    .map(
      ([c, r, s, price]) =>
        `    <g:shipping>\n      <g:country>${c}</g:country>\n${r === "" ? "" : `      <g:region>${r}</g:region>\n`}      <g:service>${xmlEscape(s)}</g:service>\n      <g:price>${money(price, p.currency)}</g:price>\n    </g:shipping>\n`
    )
    .join("")
  return (
    "  <item>\n" +
    el("g:id", p.id) +
    el(`${pre}title`, p.title) +
    el(`${pre}link`, p.link) +
    description +
    el("g:image_link", p.imageLink) +
    el("g:additional_image_link", p.additionalImageLink) +
    el("g:availability", p.availability) +
    el("g:availability_date", p.availabilityDate) +
    el("g:price", money(p.price, p.currency)) +
    el("g:sale_price", p.salePrice === null ? null : money(p.salePrice, p.currency)) +
    el("g:sale_price_effective_date", p.saleWindow) +
    el("g:google_product_category", p.leaf.gpc) +
    el("g:product_type", p.leaf.path) +
    el("g:brand", p.brand) +
    el("g:gtin", p.gtin) +
    el("g:mpn", p.mpn) +
    (p.gtin === null ? el("g:identifier_exists", "no") : "") +
    el("g:condition", p.condition) +
    el("g:item_group_id", p.itemGroupId) +
    el("g:color", p.color) +
    el("g:size", p.size) +
    el("g:gender", p.gender) +
    el("g:age_group", p.ageGroup) +
    shipping +
    el("g:custom_label_0", p.store.name) +
    "  </item>\n"
  )
}

/** RFC 4180: quote when a value holds a comma, quote or line break; double inner quotes. */
export const csvField = (s: string): string => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s)

const num = (n: number | null): string => (n === null ? "" : n.toFixed(2))

// Stable made-up Awin category ids, one per leaf.
const CATEGORY_IDS = new Map(allLeaves.map((leaf, i) => [leaf.path, String(100 + i * 7)]))

const hex = (n: number): string => (n >>> 0).toString(16).padStart(8, "0")

/** The Awin product id of a generated row: the item id of eu-awin products. */
export const awinProductId = (p: Product): string => String(31_000_000_000 + p.index)

const awinRow =
  (ctx: EncoderContext) =>
  (p: Product): string => {
    const mid = ctx.awinMid(p.store.key)
    const onSale = p.salePrice !== null && p.dealClass !== "expired-sale"
    const old = onSale ? p.price : null
    const was = old ?? p.rrp
    const saving = was !== null && was > p.current ? was - p.current : null
    const segments = p.leaf.path.split(" > ")
    const feedId = 20000 + (Number(mid) % 9000)
    const minute = (p.index * 7) % 60
    const hour = (p.index * 13) % 24
    const inStock = p.availability === "in_stock"
    const first = p.description.split(". ")[0]
    const fields = [
      `https://www.awin1.com/cread.php?awinmid=${mid}&awinaffid=${ctx.awinPubId}&ued=${encodeURIComponent(p.link)}`,
      p.title,
      awinProductId(p),
      p.sku,
      p.imageLink,
      p.description,
      segments.slice(1).join(" > "),
      num(p.current),
      p.store.name,
      mid,
      segments[segments.length - 1],
      CATEGORY_IDS.get(p.leaf.path) ?? "",
      `https://images2.productserve.com/?w=200&h=200&bg=white&trim=5&t=letterbox&url=ssl%3A${encodeURIComponent(p.imageLink.replace(/^https:\/\//, ""))}&feedId=${feedId}&k=${hex(Math.imul(p.index, 0x9e3779b1))}`,
      p.currency,
      num(p.current),
      num(shippingOf(p)[0][3]),
      p.link,
      "en",
      `2026-11-14 ${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}:00`,
      `${p.currency}${num(p.current)}`,
      String(feedId),
      p.brand,
      String(10_000 + (hashString(p.brand) % 90_000)),
      p.color ?? "",
      first.endsWith(".") ? first : `${first}.`,
      p.condition,
      p.model,
      p.mpn,
      p.leaf.uses.slice(0, 3).join(", "),
      p.dealClass === "fake-sale"
        ? `SALE! Was ${num(p.price)} ${p.currency}, now only ${num(p.current)} ${p.currency}`
        : onSale
          ? `Save ${Math.round((1 - p.current / p.price) * 100)}%`
          : "",
      p.leaf.path,
      num(p.rrp),
      num(saving),
      saving === null || was === null ? "" : String(Math.round((saving / was) * 100)),
      num(old),
      inStock ? "1" : "0",
      inStock ? String(1 + (p.index % 250)) : "0",
      p.availability === "out_of_stock" ? "0" : "1",
      p.gtin ?? "",
      p.leaf.kind === "book" ? (p.gtin ?? "") : "",
      "",
      p.mpn,
      p.gtin ?? "",
      `${p.imageLink}${p.imageLink.includes("?") ? "&" : "?"}w=200`,
      p.imageLink,
      p.rating.toFixed(1),
      ""
    ]
    return fields.map(csvField).join(",") + "\n"
  }

export const encoder = (format: FeedFormat, ctx: EncoderContext): Encoder => {
  if (format === "gmc-tsv") return { header: GMC_COLUMNS.join("\t") + "\n", row: tsvRow, footer: "" }
  if (format === "awin-csv") return { header: AWIN_COLUMNS.join(",") + "\n", row: awinRow(ctx), footer: "" }
  return {
    header:
      `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">\n<channel>\n` +
      `  <title>${xmlEscape(ctx.title)}</title>\n  <link>${xmlEscape(ctx.channelLink)}</link>\n  <description>${xmlEscape(ctx.title)}: products from our partner stores</description>\n`,
    row: xmlRow,
    footer: "</channel>\n</rss>\n"
  }
}
