import { modelKey } from "../../../domain/catalog/modelKey.ts"
import { minorUnits } from "../../../domain/money/Currency.ts"
import type { ProductDocument } from "../../../readModel/documents.ts"
import { landingPath, presentDeal, type PresentOptions } from "../../../discovery/present.ts"
import { PRODUCT_PREFIX, productIdOf } from "../../../readModel/productIds.ts"
import { optionAxes, productOptions, variantOptions } from "./options.ts"
import { AFFILIATE_EXTENSION } from "./profile.ts"

// Index documents -> UCP catalog products. Pure. A UCP product is one product
// model (our search group: colour/size variants and the same item at other
// stores); each offer is one of its variants, with our tracked link as its
// URL.
//
// Two views. "summary" (the default) carries what an agent acts on: per
// offer the id, seller, options, price, availability, condition, url and the
// verified discount, each said once (no option value again in the title, no
// "in_stock" beside `available: true`, no title again in the description);
// what is the same for every offer (the disclosure, the buying checks, the
// instructions) is said once per answer in `messages` (answerMessages.ts). "full" adds each offer's own description, categories,
// media, seller link, landing page, price-specific buying checks and the
// store's unverified "was" price.

export type View = "summary" | "full"

/** Product ids name the model (readModel/productIds.ts), whichever offer is featured; variant ids name one offer. */
export { PRODUCT_PREFIX }
export const productId = (doc: ProductDocument) => productIdOf(doc.group_key)

/** A UCP Price: an integer amount in the currency's minor units. */
export const ucpPrice = (amount: number, currency: string) => ({
  amount: Math.round(amount * 10 ** minorUnits(currency)),
  currency
})

/** Minor units -> a price in the index's major units (filters). */
export const fromMinor = (amount: number, currency: string | undefined) => amount / 10 ** minorUnits(currency ?? "USD")

/** A sentence of the discovery presenter in UCP field names (its words are for the Deal shape). */
const UCP_FIELD_NAMES: ReadonlyArray<readonly [string, string]> = [
  ["links.tracked", "this variant's url"],
  ["originalPrice (our 30-day low)", "list_price (our 30-day low)"],
  ["originalPrice", "list_price (our 30-day low)"],
  ["couponCode is null", "no coupon code is confirmed"]
]
export const inUcpTerms = (text: string) =>
  UCP_FIELD_NAMES.reduce((out, [deal, ucp]) => out.replaceAll(deal, ucp), text)

const day = (iso: string) => iso.slice(0, 10)
const listedOldest = (offers: ReadonlyArray<ProductDocument>) =>
  offers.map((doc) => day(doc.price_checked_at)).reduce((oldest, date) => (date < oldest ? date : oldest))
/** An image; its alt text (the title again) only in the full view. */
const image = (url: string | null, alt: string, view: View) =>
  url ? { media: [{ type: "image", url, ...(view === "full" ? { alt_text: alt } : {}) }] } : {}
const categoriesOf = (doc: ProductDocument) => doc.categories.map((value) => ({ value, taxonomy: "merchant" }))

/** A title without the offer's own values on the model's axes ("..., Navy" -> the model's words). */
const titleBeyondOptions = (doc: ProductDocument, axes: ReadonlyArray<string>) =>
  modelKey(doc.title, {
    color: axes.includes("Color") ? doc.color : null,
    size: axes.includes("Size") ? doc.size : null,
    condition: axes.includes("Condition") ? doc.condition : null
  })

/**
 * The offer's own title only when it says more than the product's and the
 * offer's options ("Refurbished" a title names but no axis does); a title
 * that only adds the offer's colour or size is its store's name, since
 * `options` already says them and an agent pays for every repeated byte.
 */
const variantTitle = (doc: ProductDocument, featured: ProductDocument, axes: ReadonlyArray<string>) =>
  doc.title === featured.title || titleBeyondOptions(doc, axes) === titleBeyondOptions(featured, axes)
    ? doc.store
    : `${doc.title} (${doc.store})`

/**
 * UCP's availability: `status` qualifies `available`, so the summary view
 * says it only when it adds something (pre-order, back-order, out of stock);
 * "in_stock" beside `available: true` says nothing more.
 */
const availabilityOf = (doc: ProductDocument, view: View) =>
  view === "summary" && doc.in_stock && doc.availability === "in_stock"
    ? { available: true }
    : { available: doc.in_stock, status: doc.availability }

/**
 * A description without the title it often starts with ("<title>. Soft
 * foam..."): the product's `title` says it already. The whole description
 * when it is nothing but the title.
 */
const beyondTitle = (doc: ProductDocument) => {
  const description = doc.description.trim()
  if (!description.toLowerCase().startsWith(doc.title.trim().toLowerCase())) return doc.description
  const rest = description.slice(doc.title.trim().length)
  // only a whole title: "Echo Dot" must not cut "Echo Dots ..."
  if (!/^[\s.,:;!–—|-]/.test(rest)) return doc.description
  const stripped = rest.replace(/^[\s.,:;!–—|-]+/, "")
  return stripped === "" ? doc.description : stripped
}

const variantOf = (
  doc: ProductDocument,
  featured: ProductDocument,
  options: PresentOptions,
  view: View,
  axes: ReadonlyArray<string>
) => {
  const deal = presentDeal(doc, options)
  const verified = deal.price.originalPrice !== undefined && deal.price.discountPercent !== undefined
  const selected = variantOptions(doc, axes)
  const extension = {
    // A discount only against our own 30-day reference (list_price), never the store's "was" claim.
    ...(verified
      ? { verified_discount: { percent: deal.price.discountPercent!, observed_at: deal.price.originalPriceObservedAt } }
      : {}),
    ...(view === "full"
      ? {
          price_checked_at: day(deal.price.checkedAt),
          landing_page: deal.links.landing,
          store_was_price_unverified:
            deal.price.storeWasPrice === undefined ? null : ucpPrice(deal.price.storeWasPrice, doc.currency),
          buying_checks: deal.buyingChecks,
          assistant_instructions: inUcpTerms(deal.assistantInstructions)
        }
      : {})
  }
  return {
    id: doc.id,
    title: variantTitle(doc, featured, axes),
    description: { plain: view === "full" ? doc.description : `${doc.store} offer` },
    url: deal.links.tracked,
    ...(selected.length > 0 ? { options: selected } : {}),
    price: ucpPrice(doc.price, doc.currency),
    ...(verified ? { list_price: ucpPrice(deal.price.originalPrice!, doc.currency) } : {}),
    availability: availabilityOf(doc, view),
    ...(doc.condition ? { condition: doc.condition } : {}),
    seller: {
      name: doc.store,
      ...(view === "full" && doc.store_domain
        ? { links: [{ type: "website", url: `https://${doc.store_domain}` }] }
        : {})
    },
    ...(view === "full" ? { categories: categoriesOf(doc), ...image(doc.image, doc.title, view) } : {}),
    ...(Object.keys(extension).length > 0 ? { metadata: { [AFFILIATE_EXTENSION]: extension } } : {})
  }
}

export type UcpVariant = ReturnType<typeof variantOf>

/**
 * One UCP product from the offers of one model, featured (most relevant)
 * offer first, listing at most `maxVariants` of them (a search answer stays
 * readable; get_product lists them all). The price range spans every offer
 * in the featured offer's currency.
 */
export const ucpProduct = (
  offers: ReadonlyArray<ProductDocument>,
  options: PresentOptions,
  maxVariants = offers.length,
  view: View = "summary",
  axes: ReadonlyArray<string> = optionAxes(offers)
) => {
  const featured = offers[0]
  const variants = offers.slice(0, maxVariants).map((doc) => variantOf(doc, featured, options, view, axes))
  const sameCurrency = offers.filter((doc) => doc.currency === featured.currency).map((doc) => doc.price)
  const id = productId(featured)
  return {
    id,
    title: featured.title,
    description: { plain: view === "full" ? featured.description : beyondTitle(featured) },
    // our landing page of the model (its best offer); each variant's url is the tracked link
    url: `${options.base}${landingPath(id)}`,
    ...(featured.brand ? { brand: featured.brand } : {}),
    categories: categoriesOf(featured),
    price_range: {
      min: ucpPrice(Math.min(...sameCurrency), featured.currency),
      max: ucpPrice(Math.max(...sameCurrency), featured.currency)
    },
    ...image(featured.image, featured.title, view),
    ...(axes.length > 0 ? { options: productOptions(offers, axes) } : {}),
    variants,
    metadata: {
      [AFFILIATE_EXTENSION]: {
        offers: offers.length,
        stores: new Set(offers.map((doc) => doc.store)).size,
        // the oldest check among the offers listed: "checked on" is then true of every price shown
        prices_checked_at: listedOldest(offers.slice(0, maxVariants))
      }
    }
  }
}

export type UcpProduct = ReturnType<typeof ucpProduct>
