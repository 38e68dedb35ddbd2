import { Schema } from "effect"

// The discovery feed's wire contract. Names are part of the public
// interface: agents and widgets parse them.

export const DealPrice = Schema.Struct({
  amount: Schema.Number.annotate({ description: "What a shopper pays now, per the merchant's feed." }),
  currency: Schema.String.annotate({ description: "ISO 4217 code." }),
  originalPrice: Schema.optional(Schema.Number).annotate({
    description:
      "Our reference price: the lowest price we observed in the 30 days before the current price started " +
      "(not the store's own 'was' claim). Present only when we have such history."
  }),
  discountPercent: Schema.optional(Schema.Number).annotate({
    description: "Percent below originalPrice, rounded down. Present only with originalPrice."
  }),
  originalPriceObservedAt: Schema.optional(Schema.String).annotate({
    description: "Date (YYYY-MM-DD) the reference price was observed."
  }),
  storeWasPrice: Schema.optional(Schema.Number).annotate({
    description: "The store's own 'was'/list price claim from its feed: unverified, context only."
  }),
  checkedAt: Schema.String.annotate({
    description: "When the price was last read from the merchant's feed (ISO 8601)."
  }),
  converted: Schema.optional(
    Schema.Struct({
      amount: Schema.Number,
      currency: Schema.String.annotate({ description: "ISO 4217 code of the converted figure (EUR)." }),
      ratesAsOf: Schema.String.annotate({ description: "Day (YYYY-MM-DD) of the reference exchange rates used." })
    })
  ).annotate({
    description:
      "Only in an answer without a market that ordered prices of several currencies cheapest first: this price " +
      "converted at the European Central Bank's euro reference rates, the figure it was ordered by. For comparing " +
      "only: the shopper pays amount in currency."
  })
})

export const DealVariants = Schema.Struct({
  colors: Schema.Array(Schema.String).annotate({ description: "Colours this product is offered in (every store)." }),
  sizes: Schema.Array(Schema.String).annotate({ description: "Sizes this product is offered in (every store)." }),
  offers: Schema.Number.annotate({ description: "Offers of this product (colours, sizes, conditions and stores)." }),
  stores: Schema.Number.annotate({ description: "Stores that sell this product." })
}).annotate({
  description:
    'The rest of this deal\'s product model, so an agent can say "also in 4 colours from 3 stores". ' +
    "The deal itself is one offer; absent where the model is not known."
})

export const Deal = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  description: Schema.String,
  category: Schema.String,
  store: Schema.String,
  brand: Schema.NullOr(Schema.String),
  image: Schema.NullOr(Schema.String),
  availability: Schema.String.annotate({ description: "in_stock | out_of_stock | preorder | backorder" }),
  price: DealPrice,
  couponCode: Schema.NullOr(Schema.String).annotate({
    description: "Null while a public promotional code is pending partner confirmation."
  }),
  couponCodeStatus: Schema.Literal("pending_partner_confirmation"),
  links: Schema.Struct({
    landing: Schema.String.annotate({ description: "Absolute URI of this service's HTML page for the deal." }),
    tracked: Schema.String.annotate({ description: "Absolute URI through our redirect (/t/...), carrying the tag." })
  }),
  disclosure: Schema.String,
  buyingChecks: Schema.Array(Schema.String),
  assistantInstructions: Schema.String,
  variants: Schema.optional(DealVariants)
})
export type Deal = typeof Deal.Type

export const MarketNote = Schema.Struct({
  country: Schema.NullOr(Schema.String).annotate({
    description: "The market answered for (ISO 3166-1 alpha-2), or null when none was given."
  }),
  currency: Schema.NullOr(Schema.String).annotate({
    description: "The currency every price of the answer is in (ISO 4217), or null when the answer may span several."
  }),
  source: Schema.NullOr(Schema.Literals(["parameter", "accept-language", "default"])).annotate({
    description:
      "Where the market came from: the country parameter, the browser's Accept-Language region (pages), or the " +
      "operator's DEFAULT_COUNTRY."
  }),
  currencies: Schema.Array(Schema.String).annotate({
    description:
      "The currencies of the offers in this answer, sorted. More than one only without a market: their prices are " +
      "not comparable as they stand."
  }),
  countries: Schema.optional(Schema.Array(Schema.String)).annotate({
    description:
      "The countries the answer's offers sell in (ISO 3166-1 alpha-2), sorted: the markets an answer without a " +
      "market spans. With a market, its country only."
  }),
  convertedTo: Schema.optional(
    Schema.Struct({ currency: Schema.String, ratesAsOf: Schema.String, source: Schema.String })
  ).annotate({
    description:
      "Present when price words ordered prices of several currencies: the currency they were converted into for " +
      "ordering (each result's price.converted), the reference rates' day and their source."
  })
}).annotate({ description: "Which market (country and currency) the answer is for, or which currencies it spans." })

export const DealFeed = Schema.Struct({
  name: Schema.String,
  market: MarketNote,
  disclosure: Schema.String,
  count: Schema.Number.annotate({ description: "Number of deals returned." }),
  deals: Schema.Array(Deal)
})

export const SearchSuggestion = Schema.Struct({
  kind: Schema.Literals(["cheapest_match", "without_price_limit", "other_category"]),
  text: Schema.String.annotate({ description: 'What to tell the shopper, e.g. "headphones from 79.99 USD".' }),
  q: Schema.String.annotate({ description: "The phrase to search next (pass it as q)." }),
  category: Schema.optional(Schema.String).annotate({ description: "The category to search next; absent: all." }),
  price: Schema.optional(Schema.Struct({ amount: Schema.Number, currency: Schema.String })).annotate({
    description: "cheapest_match: the cheapest matching product's price in that currency."
  }),
  title: Schema.optional(Schema.String).annotate({ description: "cheapest_match: that product's title." })
})

export const SearchFeed = Schema.Struct({
  name: Schema.String,
  guidance: Schema.String.annotate({
    description:
      "How the phrase was interpreted and how to present the results: the words searched for, each price, " +
      'category, brand and audience reading, how each modifier was read (e.g. \'read "cheap" as: prefer lower ' +
      "prices'), the filler ignored, what was relaxed when nothing matched every word ('Relaxed: ...'), and, when a " +
      "hard constraint (price bound, currency, category) left nothing, which one and the closest match ('Nothing " +
      "matched: nothing with price at most 20 USD; the cheapest match is 24.99 USD ...')."
  }),
  market: MarketNote,
  count: Schema.Number.annotate({ description: "Number of results returned." }),
  results: Schema.Array(Deal),
  total: Schema.Number.annotate({
    description:
      "Products matching across all pages (exact when the search read them all, else Meilisearch's estimate)."
  }),
  offset: Schema.Number.annotate({ description: "Results skipped before this page (the offset parameter)." }),
  nextOffset: Schema.optional(Schema.Number).annotate({
    description: "The offset of the next page; absent on the last page."
  }),
  suggestions: Schema.optional(Schema.Array(SearchSuggestion)).annotate({
    description:
      "Only when nothing matched: ways forward the catalog answers, e.g. the cheapest match in each currency " +
      "when a price limit excluded everything, the phrase without the price limit, the words in every category."
  })
})
