import { CountryParam } from "../discovery/marketParams.ts"
import { type JsonSchema, Schema } from "effect"
import { Tool, Toolkit } from "effect/ai"
import { ErrorBody } from "../errors.ts"

// The MCP tools as a model sees them: names, descriptions and bounded input
// schemas. Shared by the server's /mcp endpoint and `aff mcp` (stdio), which
// registers the same tools and forwards their calls to a server.
//
// Each tool advertises the JSON Schema of its Effect Schema but validates the
// arguments itself (toolErrors.ts): a bad argument, an unknown key included,
// then comes back as an answer naming it (`invalid_parameter`), which a model
// can read and correct, instead of a JSON-RPC error. Titles, output schemas and
// the envelope rules are in toolOutputs.ts and toolEnvelopes.ts.

const Text = (max: number) => Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(max))
const Int = (minimum: number, maximum: number) =>
  Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum, maximum }))
const List = <S extends Schema.Top>(item: S, max: number) =>
  Schema.Array(item).check(Schema.isMinLength(1), Schema.isMaxLength(max))

export const MAX_PAGE = 50
export const MAX_LOOKUP_IDS = 20

/** UCP request metadata; accepted and not required (many MCP clients cannot add it). */
const Meta = Schema.optionalKey(
  Schema.Struct({
    "ucp-agent": Schema.optionalKey(Schema.Struct({ profile: Schema.optionalKey(Text(2048)) })),
    "idempotency-key": Schema.optionalKey(Text(200))
  })
).annotate({ description: "UCP request metadata (meta['ucp-agent'].profile); optional here." })

/** How much of each offer an answer carries (ucp/products.ts). */
const View = Schema.optionalKey(Schema.Literals(["summary", "full"])).annotate({
  description:
    "'summary' (default): per offer what an agent acts on (id, seller, price, availability, condition, url, " +
    "verified discount). 'full': also each offer's description, media, categories, landing page and buying checks."
})

const Filters = Schema.Struct({
  categories: Schema.optionalKey(List(Text(100), 10)).annotate({
    description:
      "Categories (any level of the store's category path, case-insensitive); a product in any of them matches."
  }),
  brand: Schema.optionalKey(List(Text(100), 10)).annotate({ description: "Brand names; any of them matches." }),
  price: Schema.optionalKey(
    Schema.Struct({
      min: Schema.optionalKey(Int(0, 1_000_000_000)).annotate({ description: "Lowest price, in minor units (cents)." }),
      max: Schema.optionalKey(Int(0, 1_000_000_000)).annotate({ description: "Highest price, in minor units (cents)." })
    })
  ).annotate({
    description: "Price bounds in minor units (12999 = 129.99); set context.currency so they compare in one currency."
  }),
  availability: Schema.optionalKey(
    List(Schema.Literals(["in_stock", "out_of_stock", "preorder", "backorder"]), 4)
  ).annotate({
    description: "Availability statuses to include; default: everything but out_of_stock."
  })
})

const Context = Schema.Struct({
  currency: Schema.optionalKey(
    Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/, { message: "must be an ISO 4217 code such as USD" }))
  ).annotate({ description: "Only offers in this currency; the unit of filters.price." }),
  address_country: Schema.optionalKey(Text(2)),
  // UCP's other buyer signals: accepted (a conformant client may send them), not used to answer
  address_region: Schema.optionalKey(Text(100)),
  postal_code: Schema.optionalKey(Text(20)),
  eligibility: Schema.optionalKey(Schema.Array(Text(200)).check(Schema.isMaxLength(20))),
  language: Schema.optionalKey(Text(35)),
  intent: Schema.optionalKey(Text(500)).annotate({
    description:
      "Background, e.g. 'a gift under $50 for a 10 year old': its price, recipient and preference apply; its words " +
      "are searched only without a query."
  })
})

/** UCP request members we accept and do not use (a conformant client may send them). */
const UcpExtras = {
  signals: Schema.optionalKey(Schema.Record(Text(100), Schema.Unknown)).annotate({
    description: "UCP buyer signals (e.g. dev.ucp.user_agent); accepted, not used."
  }),
  attribution: Schema.optionalKey(Schema.Record(Text(100), Schema.String.check(Schema.isMaxLength(500)))).annotate({
    description: "UCP attribution parameters; accepted, not used (tracked links carry the partner's tag)."
  })
}

export const SearchCatalogParams = Schema.Struct({
  meta: Meta,
  catalog: Schema.Struct({
    query: Schema.optionalKey(Text(200)).annotate({
      description: "What the shopper wants, in words, e.g. 'wireless earbuds'."
    }),
    filters: Schema.optionalKey(Filters),
    context: Schema.optionalKey(Context),
    ...UcpExtras,
    pagination: Schema.optionalKey(
      Schema.Struct({
        cursor: Schema.optionalKey(Text(200)).annotate({ description: "pagination.cursor of the previous page." }),
        // UCP: "implementations MAY clamp to a lower maximum"; a larger limit is served at the maximum, not refused.
        limit: Schema.optionalKey(Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1))).annotate({
          description: `Products per page, default 10; at most ${MAX_PAGE} are returned (a larger limit is clamped).`
        })
      })
    ),
    view: View
  })
})

export const LookupCatalogParams = Schema.Struct({
  meta: Meta,
  catalog: Schema.Struct({
    ids: List(Text(2048), MAX_LOOKUP_IDS).annotate({
      description:
        `1..${MAX_LOOKUP_IDS} of: product ids (prod_...) or variant ids from earlier results, a merchant's product ` +
        "page URL (https://...), or a GTIN/EAN/UPC (8 to 14 digits). A URL or GTIN returns the model with every " +
        "offer we know of it."
    }),
    filters: Schema.optionalKey(Filters),
    context: Schema.optionalKey(Context),
    ...UcpExtras,
    view: View
  })
})

const SelectedOption = Schema.Struct({
  name: Text(50).annotate({ description: "Option name: Color, Size or Condition." }),
  label: Text(100).annotate({ description: "The value, as the product's options list it, e.g. 'Black'." })
})

export const GetProductParams = Schema.Struct({
  meta: Meta,
  catalog: Schema.Struct({
    id: Text(200).annotate({ description: "A product id (prod_...) or a variant id." }),
    selected: Schema.optionalKey(Schema.Array(SelectedOption).check(Schema.isMaxLength(3))).annotate({
      description: "Option selections narrowing the variants, e.g. [{name: 'Color', label: 'Black'}]."
    }),
    preferences: Schema.optionalKey(Schema.Array(Text(50)).check(Schema.isMaxLength(3))).annotate({
      description:
        "Option names in the order to keep them when no variant matches every selection (last dropped first)."
    }),
    filters: Schema.optionalKey(Filters),
    context: Schema.optionalKey(Context),
    ...UcpExtras,
    view: View
  })
})

export const ListDealsParams = Schema.Struct({
  category: Schema.optionalKey(Text(100)).annotate({
    description: "Category (case-insensitive), e.g. 'Electronics'; default all."
  }),
  store: Schema.optionalKey(Text(100)).annotate({ description: "Store name (case-insensitive); default all." }),
  limit: Schema.optionalKey(Int(1, MAX_PAGE)).annotate({ description: `1..${MAX_PAGE}, default 10.` }),
  // list_deals has no UCP context: the shopper's country is an argument, read as /api/deals reads its parameter
  country: Schema.optionalKey(CountryParam).annotate({
    description:
      "The shopper's country (ISO 3166-1 alpha-2, e.g. US, GB, FR): only deals priced in its currency and sold in " +
      "it. Default: the operator's DEFAULT_COUNTRY, else every market (the answer's market says which it spans)."
  })
})

export const MatchLinkParams = Schema.Struct({
  url: Text(2048).annotate({ description: "Any merchant or product URL, e.g. https://www.nike.com/t/air-max-90." }),
  country: Schema.optionalKey(CountryParam).annotate({
    description:
      "The shopper's country (ISO 3166-1 alpha-2): for a merchant with a programme per country, a URL that names " +
      "no country (nike.com/t/...) gets that country's programme, as POST /api/v1/links/match's country does. " +
      "Default: the operator's DEFAULT_COUNTRY."
  })
})

export const FindProgramsParams = Schema.Struct({
  domain: Schema.optionalKey(Text(253)).annotate({ description: "A merchant domain or URL, e.g. 'nike.com'." }),
  keyword: Schema.optionalKey(Text(100)).annotate({
    description: "Words in the merchant or programme name, e.g. 'running'."
  }),
  limit: Schema.optionalKey(Int(1, MAX_PAGE)).annotate({ description: `1..${MAX_PAGE}, default 10.` })
})

export const PartnerStatsParams = Schema.Struct({})
/** Schema.Struct({}) compiles to "anything but null"; MCP needs an object root. */
const NO_ARGUMENTS: JsonSchema.JsonSchema = { type: "object", properties: {}, additionalProperties: false }

/** The failure our own tools return: the JSON API's error body. */
export const ToolFailure = Schema.Struct({ error: ErrorBody })
export type ToolFailure = typeof ToolFailure.Type

const jsonSchemaOf = (schema: Schema.Top): JsonSchema.JsonSchema => {
  if (schema === PartnerStatsParams) return NO_ARGUMENTS
  // additionalProperties: false, as the arguments are decoded: an unknown key is refused
  const document = Schema.toJsonSchemaDocument(schema, { onExcessProperty: "error" })
  return Object.keys(document.definitions).length === 0
    ? document.schema
    : { ...document.schema, $defs: document.definitions }
}

const define = <const Name extends string>(name: Name, parameters: Schema.Top, description: string, readOnly = true) =>
  Tool.dynamic(name, {
    description,
    parameters: jsonSchemaOf(parameters),
    success: Schema.Unknown,
    // our own tools fail with ToolFailure, the UCP tools with UCP's error response (ucp/answerMessages.ts)
    failure: Schema.Unknown
  })
    .annotate(Tool.Readonly, readOnly)
    .annotate(Tool.Destructive, false)
    .annotate(Tool.OpenWorld, false)

const UCP_PRODUCTS =
  "Each product is one product model with its offers from several stores as variants; a variant's url is a tracked " +
  "affiliate link (the only link to give the shopper), prices are integers in minor units (12999 = 129.99). The " +
  "answer's messages carry, once, the disclosure to show next to the links (a warning with presentation " +
  "'disclosure'), how to use the offers and the checks before buying; a variant has list_price and " +
  "metadata['com.affiliate_commerce.offer'].verified_discount only when the price is below the lowest price we " +
  "observed in the previous 30 days. catalog.view 'full' adds each offer's details. Unknown argument keys are refused."

export const SearchCatalog = define(
  "search_catalog",
  SearchCatalogParams,
  "Search the product catalog (UCP catalog search). Give catalog.query (words, read like the search page reads " +
    "them: price, recipient, 'cheap'...) and/or catalog.context.intent, and/or catalog.filters (categories, brand, " +
    "price in minor units, availability), which win over the words; messages say how the request was read. Page " +
    "with catalog.pagination.limit (default 10, at most 50) and the cursor of the previous answer. " +
    UCP_PRODUCTS
)

export const LookupCatalog = define(
  "lookup_catalog",
  LookupCatalogParams,
  "Fetch products by id (UCP catalog lookup): 1..20 product ids (prod_...) or variant ids from earlier results " +
    "(more is a JSON-RPC invalid-params error). Unknown ids are reported in messages (code not_found), never as an " +
    "error. Each variant's inputs says which id found it. " +
    UCP_PRODUCTS
)

export const GetProduct = define(
  "get_product",
  GetProductParams,
  "Full detail of one product (UCP get_product) by product id (prod_...) or variant id, with every offer we know for " +
    "that model. An unknown id answers ucp.status 'error' with an error message of code not_found. " +
    UCP_PRODUCTS
)

export const ListDeals = define(
  "list_deals",
  ListDealsParams,
  "Current verified deals: products priced at least 10% below the lowest price we observed in the 30 days before " +
    "(20% with shorter history), best deal first. Optional category, store and limit (1..50, default 10). Prices are " +
    "integers in minor units like the catalog tools'; each deal has url (the tracked buy link) and verified_discount; " +
    "the answer has, once, the disclosure to show beside the links, buying_checks and assistant_instructions."
)

export const MatchLink = define(
  "match_link",
  MatchLinkParams,
  "Turn any merchant URL into the partner's affiliate tracking link (/t/...), choosing the best programme across our " +
    "networks. Needs the partner's API key (Authorization: Bearer on /mcp, or AFF_API_KEY for aff mcp). Answers " +
    "matched:false with a reason when no programme covers the merchant; the same URL again returns the same link.",
  false
)

export const FindPrograms = define(
  "find_programs",
  FindProgramsParams,
  "Find affiliate programmes (merchants) by domain (e.g. 'nike.com', matched like links are) or by keyword in the " +
    "name; give at least one. Returns network, commission type and rate, cookie days and status for each."
)

export const PartnerStats = define(
  "partner_stats",
  PartnerStatsParams,
  "The calling partner's performance: clicks, unique clicks, bot clicks, conversions, revenue and EPC in total and " +
    "per tracking link, and clicks per day. Needs the partner's API key (Authorization: Bearer on /mcp, or " +
    "AFF_API_KEY for aff mcp); takes no arguments."
)

export const ShoppingTools = Toolkit.make(
  SearchCatalog,
  LookupCatalog,
  GetProduct,
  ListDeals,
  MatchLink,
  FindPrograms,
  PartnerStats
)
