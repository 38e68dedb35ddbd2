import { feedTrackingId } from "../domain/links/feedTrackingId.ts"
import { formatPrice } from "../domain/money/formatPrice.ts"
import { comparablePrice } from "../domain/money/exchangeRates.ts"
import { round2 } from "../domain/money/round2.ts"
import type { ProductDocument } from "../readModel/documents.ts"
import type { DealOffer } from "../readModel/modelDocuments.ts"
import type { ConvertedPrices } from "./priceOrder.ts"
import type { Deal } from "./schemas.ts"

// Turns index documents into the feed's Deal objects. Pure: the base URL
// and tag come in, nothing is looked up or written.

export const COUPON_STATUS = "pending_partner_confirmation" as const

export const BASE_DISCLOSURE =
  "Disclosure: we earn a commission if you buy through these links, at no extra cost to you. " +
  "Prices and availability can change; check them at the store before you buy."
export const AMAZON_DISCLOSURE = "As an Amazon Associate I earn from qualifying purchases."

export const isAmazon = (doc: Pick<ProductDocument, "store" | "store_domain">) =>
  /\bamazon\b/i.test(doc.store) || /(^|\.)amazon\.[a-z.]+$/i.test(doc.store_domain ?? "")

export const disclosureFor = (docs: ReadonlyArray<Pick<ProductDocument, "store" | "store_domain">>) =>
  docs.some(isAmazon) ? `${BASE_DISCLOSURE} ${AMAZON_DISCLOSURE}` : BASE_DISCLOSURE

/** Prices in sentences and pages read as people write them ("$449.00"); JSON fields keep numbers and ISO codes. */
export const formatMoney = formatPrice
const day = (iso: string) => iso.slice(0, 10)

const AVAILABILITY_WORDS: Record<string, string> = {
  in_stock: "in stock",
  out_of_stock: "out of stock",
  preorder: "available for pre-order",
  backorder: "on back-order"
}
export const availabilityText = (availability: string) => AVAILABILITY_WORDS[availability] ?? availability

/**
 * A saving is only shown against our own reference price when the current
 * price is actually below it: a 30-day low under today's price is history,
 * not an "original price".
 */
export const hasVerifiedSaving = (doc: Pick<ProductDocument, "reference_price" | "price" | "discount">) =>
  doc.reference_price !== null && doc.reference_price > doc.price && doc.discount > 0

export const buyingChecks = (doc: DealOffer): Array<string> => {
  const checks = [
    `Confirm the price at checkout is ${formatMoney(doc.price, doc.currency)}; it was last checked on ${day(doc.price_checked_at)}.`
  ]
  if (doc.reference_price !== null && hasVerifiedSaving(doc)) {
    checks.push(
      `The reference price ${formatMoney(doc.reference_price, doc.currency)} is the lowest we observed in the 30 days ` +
        `before the current price (observed ${doc.reference_observed_at ?? "recently"}); the saving is ${doc.discount}% against it.`
    )
  } else if (doc.reference_price !== null) {
    checks.push(
      `The current price is not below the lowest price we observed in the previous 30 days ` +
        `(${formatMoney(doc.reference_price, doc.currency)}): do not present it as a discount.`
    )
  } else {
    checks.push("We have no earlier price history for this product: do not present it as a discount.")
  }
  if (doc.feed_was_price !== null && doc.feed_was_price > doc.price) {
    checks.push(
      `The store's "was" price of ${formatMoney(doc.feed_was_price, doc.currency)} is the store's own claim; we have not verified it.`
    )
  }
  checks.push(`Check that it is still ${availabilityText(doc.availability)} and in the size or variant you want.`)
  checks.push("Check shipping costs and the delivery date to your address.")
  checks.push(`Read ${doc.store}'s return policy before buying.`)
  checks.push("No coupon code is confirmed for this deal: do not apply or promise one.")
  return checks
}

export const assistantInstructions = (doc: DealOffer) =>
  `Show the disclosure next to the link. Link to the product only through links.tracked. ` +
  `Quote the price exactly as given (${formatMoney(doc.price, doc.currency)}) and say it was checked on ` +
  `${day(doc.price_checked_at)} and may have changed. ` +
  (hasVerifiedSaving(doc)
    ? `Describe the saving only against originalPrice (our 30-day low), never against the store's "was" price. `
    : "Do not describe this product as discounted. ") +
  "Do not invent coupon codes, prices, discounts, ratings or stock levels; couponCode is null because no code is confirmed."

export interface PresentOptions {
  /** Absolute base of this service, without trailing slash. */
  readonly base: string
  readonly tag: string
  /** The answer's prices were ordered converted (priceOrder.ts): each price says its converted figure. */
  readonly converted?: ConvertedPrices | undefined
}

/** A price converted as the answer's order converted it, or none when its currency has no rate. */
const convertedPrice = (doc: DealOffer, converted: ConvertedPrices | undefined) => {
  if (converted === undefined || doc.currency === converted.currency) return undefined
  const amount = comparablePrice(doc.price, doc.currency, converted.rates, converted.currency)
  return amount === undefined
    ? undefined
    : { amount: round2(amount), currency: converted.currency, ratesAsOf: converted.ratesAsOf }
}

export const landingPath = (id: string) => `/deals/${id}`

export const presentDeal = (doc: DealOffer, options: PresentOptions): Deal => ({
  id: doc.id,
  title: doc.title,
  description: doc.description,
  category: doc.category ?? "",
  store: doc.store,
  brand: doc.brand,
  image: doc.image,
  availability: doc.availability,
  price: {
    amount: round2(doc.price),
    currency: doc.currency,
    ...(hasVerifiedSaving(doc) && doc.reference_price !== null
      ? {
          originalPrice: round2(doc.reference_price),
          discountPercent: doc.discount,
          ...(doc.reference_observed_at !== null ? { originalPriceObservedAt: doc.reference_observed_at } : {})
        }
      : {}),
    ...(doc.feed_was_price !== null ? { storeWasPrice: round2(doc.feed_was_price) } : {}),
    checkedAt: doc.price_checked_at,
    ...(convertedPrice(doc, options.converted) === undefined
      ? {}
      : { converted: convertedPrice(doc, options.converted)! })
  },
  couponCode: null,
  couponCodeStatus: COUPON_STATUS,
  links: {
    landing: `${options.base}${landingPath(doc.id)}`,
    tracked: `${options.base}/t/${feedTrackingId(doc.product_id, options.tag)}`
  },
  disclosure: disclosureFor([doc]),
  buyingChecks: buyingChecks(doc),
  assistantInstructions: assistantInstructions(doc),
  ...(doc.variants !== undefined
    ? {
        variants: {
          colors: [...doc.variants.colors],
          sizes: [...doc.variants.sizes],
          offers: doc.variants.offers,
          stores: doc.variants.stores
        }
      }
    : {})
})
