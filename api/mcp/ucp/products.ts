import { minorUnits } from "../../../domain/money/Currency.ts"
import type { ProductDocument } from "../../../readModel/documents.ts"
import { disclosureFor, landingPath, presentDeal, type PresentOptions } from "../../../discovery/present.ts"
import { PRODUCT_PREFIX, productIdOf } from "../../../readModel/productIds.ts"
import { optionAxes, productOptions, variantOptions } from "./options.ts"
import { AFFILIATE_EXTENSION } from "./profile.ts"

// Index documents -> UCP catalog products. Pure. A UCP product is one product
// model (our search group: colour/size variants and the same item at other
// stores); each offer is one of its variants, with our tracked link as its
// URL. Everything a shopper must be told (disclosure, buying checks, the
// verified discount) comes from the discovery feed's own presenter.

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

// The discovery presenter words its instructions for the Deal shape; a UCP
// client sees the same facts under the UCP field names.
const UCP_FIELD_NAMES: ReadonlyArray<readonly [string, string]> = [
  ["links.tracked", "this variant's url"],
  ["originalPrice", "list_price (our 30-day low)"],
  ["couponCode is null", "coupon_code is null"]
]
const inUcpTerms = (text: string) => UCP_FIELD_NAMES.reduce((out, [deal, ucp]) => out.replaceAll(deal, ucp), text)

const variantOf = (doc: ProductDocument, options: PresentOptions, axes: ReadonlyArray<string>) => {
  const deal = presentDeal(doc, options)
  const verified = deal.price.originalPrice !== undefined && deal.price.discountPercent !== undefined
  const selected = variantOptions(doc, axes)
  return {
    id: doc.id,
    title: `${doc.title} at ${doc.store}`,
    description: { plain: doc.description },
    url: deal.links.tracked,
    ...(selected.length > 0 ? { options: selected } : {}),
    price: ucpPrice(doc.price, doc.currency),
    // A strikethrough only against our own 30-day reference, never the store's "was" claim.
    ...(verified ? { list_price: ucpPrice(deal.price.originalPrice!, doc.currency) } : {}),
    availability: { available: doc.in_stock, status: doc.availability },
    ...(doc.condition ? { condition: doc.condition } : {}),
    categories: doc.categories.map((value) => ({ value, taxonomy: "merchant" })),
    ...(doc.image ? { media: [{ type: "image", url: doc.image, alt_text: doc.title }] } : {}),
    seller: {
      name: doc.store,
      ...(doc.store_domain ? { links: [{ type: "website", url: `https://${doc.store_domain}` }] } : {})
    },
    metadata: {
      [AFFILIATE_EXTENSION]: {
        tracked_link: deal.links.tracked,
        landing_page: deal.links.landing,
        disclosure: deal.disclosure,
        price_checked_at: deal.price.checkedAt,
        verified_discount: verified
          ? {
              percent: deal.price.discountPercent!,
              reference_price: ucpPrice(deal.price.originalPrice!, doc.currency),
              reference_observed_at: deal.price.originalPriceObservedAt ?? null,
              reference: "the lowest price we observed in the 30 days before the current price started"
            }
          : null,
        store_was_price_unverified:
          deal.price.storeWasPrice === undefined ? null : ucpPrice(deal.price.storeWasPrice, doc.currency),
        coupon_code: null,
        buying_checks: deal.buyingChecks,
        assistant_instructions: inUcpTerms(deal.assistantInstructions)
      }
    }
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
  axes: ReadonlyArray<string> = optionAxes(offers)
) => {
  const featured = offers[0]
  const variants = offers.slice(0, maxVariants).map((doc) => variantOf(doc, options, axes))
  const sameCurrency = offers.filter((doc) => doc.currency === featured.currency).map((doc) => doc.price)
  const stores = [...new Set(offers.map((doc) => doc.store))]
  const id = productId(featured)
  return {
    id,
    title: featured.title,
    description: { plain: featured.description },
    // our landing page of the model (its best offer); each variant's url is the tracked link
    url: `${options.base}${landingPath(id)}`,
    ...(featured.brand ? { brand: featured.brand } : {}),
    categories: featured.categories.map((value) => ({ value, taxonomy: "merchant" })),
    price_range: {
      min: ucpPrice(Math.min(...sameCurrency), featured.currency),
      max: ucpPrice(Math.max(...sameCurrency), featured.currency)
    },
    ...(featured.image ? { media: [{ type: "image", url: featured.image, alt_text: featured.title }] } : {}),
    ...(axes.length > 0 ? { options: productOptions(offers, axes) } : {}),
    variants,
    metadata: {
      [AFFILIATE_EXTENSION]: {
        offers: offers.length,
        stores,
        disclosure: disclosureFor(offers),
        assistant_instructions:
          "Each variant is one store's offer for this model: link to it only through its url (a tracked link) and " +
          "show the disclosure next to the links. Follow each variant's buying_checks and assistant_instructions; " +
          "call a price a discount only with verified_discount."
      }
    }
  }
}

export type UcpProduct = ReturnType<typeof ucpProduct>
