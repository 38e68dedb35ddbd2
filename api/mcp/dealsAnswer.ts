import type { DealOffer } from "../../readModel/modelDocuments.ts"
import { disclosureFor, presentDeal, type PresentOptions } from "../../discovery/present.ts"
import { ucpPrice } from "./ucp/products.ts"

// list_deals' answer in the units and casing of the catalog tools: prices as
// integers in minor units with their currency, snake_case keys, the tracked
// link as `url`. What is the same for every deal (disclosure, instructions,
// generic checks) is said once; each deal keeps its own price facts.

const INSTRUCTIONS =
  "Show the disclosure next to the links. Link to a deal only through its url (a tracked link). Prices are integers " +
  "in minor units (12999 = 129.99 in the price's currency): quote them exactly and say they were checked on " +
  "price_checked_at and may have changed. Describe a saving only with verified_discount (against the lowest price " +
  "we observed in the 30 days before), never against store_was_price_unverified. Do not invent coupon codes, prices, " +
  "discounts, ratings or stock levels: coupon_code is null because no code is confirmed."

const BUYING_CHECKS = [
  "Confirm the price at checkout.",
  "Check that it is still available in the size or variant wanted.",
  "Check shipping costs and the delivery date to the shopper's address.",
  "Read the store's return policy before buying."
]

const dealOf = (doc: DealOffer, options: PresentOptions) => {
  const deal = presentDeal(doc, options)
  const { price } = deal
  return {
    id: deal.id,
    title: deal.title,
    category: deal.category,
    store: deal.store,
    brand: deal.brand,
    image: deal.image,
    availability: deal.availability,
    price: ucpPrice(price.amount, price.currency),
    verified_discount:
      price.originalPrice !== undefined && price.discountPercent !== undefined
        ? {
            percent: price.discountPercent,
            reference_price: ucpPrice(price.originalPrice, price.currency),
            reference_observed_at: price.originalPriceObservedAt ?? null
          }
        : null,
    store_was_price_unverified:
      price.storeWasPrice === undefined ? null : ucpPrice(price.storeWasPrice, price.currency),
    price_checked_at: price.checkedAt,
    coupon_code: null,
    url: deal.links.tracked,
    landing_page: deal.links.landing
  }
}

export const dealsAnswer = (documents: ReadonlyArray<DealOffer>, options: PresentOptions) => ({
  disclosure: disclosureFor(documents),
  assistant_instructions: INSTRUCTIONS,
  buying_checks: BUYING_CHECKS,
  count: documents.length,
  deals: documents.map((doc) => dealOf(doc, options))
})
