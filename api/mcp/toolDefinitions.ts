import { type JsonSchema, Schema } from "effect"
import { Tool, Toolkit } from "effect/ai"
import { ErrorBody } from "../errors.ts"

// The MCP tools as a model sees them: names, descriptions and bounded input
// schemas. Shared by the server's /mcp endpoint and `aff mcp` (stdio), which
// registers the same tools and forwards their calls to a server.
//
// Each tool advertises the JSON Schema of its Effect Schema but validates the
// arguments itself (see ToolArguments.ts): a bad argument then comes back as a
// tool error carrying the JSON API's `invalid_parameter` body, which a model
// can read and correct, instead of a JSON-RPC error.

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
    "ucp-agent": Schema.optionalKey(Schema.Struct({ profile: Schema.optionalKey(Text(2048)) }))
  })
).annotate({ description: "UCP request metadata (meta['ucp-agent'].profile); optional here." })

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
  language: Schema.optionalKey(Text(35)),
  intent: Schema.optionalKey(Text(500))
})

export const SearchCatalogParams = Schema.Struct({
  meta: Meta,
  catalog: Schema.Struct({
    query: Schema.optionalKey(Text(200)).annotate({
      description: "What the shopper wants, in words, e.g. 'wireless earbuds'."
    }),
    filters: Schema.optionalKey(Filters),
    context: Schema.optionalKey(Context),
    pagination: Schema.optionalKey(
      Schema.Struct({
        cursor: Schema.optionalKey(Text(200)).annotate({ description: "pagination.cursor of the previous page." }),
        limit: Schema.optionalKey(Int(1, MAX_PAGE)).annotate({
          description: `Products per page, 1..${MAX_PAGE}, default 10.`
        })
      })
    )
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
    context: Schema.optionalKey(Context)
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
    context: Schema.optionalKey(Context)
  })
})

export const ListDealsParams = Schema.Struct({
  category: Schema.optionalKey(Text(100)).annotate({
    description: "Category (case-insensitive), e.g. 'Electronics'; default all."
  }),
  store: Schema.optionalKey(Text(100)).annotate({ description: "Store name (case-insensitive); default all." }),
  limit: Schema.optionalKey(Int(1, MAX_PAGE)).annotate({ description: `1..${MAX_PAGE}, default 10.` })
})

export const MatchLinkParams = Schema.Struct({
  url: Text(2048).annotate({ description: "Any merchant or product URL, e.g. https://www.nike.com/t/air-max-90." })
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

/** The failure every tool returns: the JSON API's error body. */
export const ToolFailure = Schema.Struct({ error: ErrorBody })
export type ToolFailure = typeof ToolFailure.Type

const jsonSchemaOf = (schema: Schema.Top): JsonSchema.JsonSchema => {
  if (schema === PartnerStatsParams) return NO_ARGUMENTS
  const document = Schema.toJsonSchemaDocument(schema)
  return Object.keys(document.definitions).length === 0
    ? document.schema
    : { ...document.schema, $defs: document.definitions }
}

const define = <const Name extends string>(name: Name, parameters: Schema.Top, description: string, readOnly = true) =>
  Tool.dynamic(name, {
    description,
    parameters: jsonSchemaOf(parameters),
    success: Schema.Unknown,
    failure: ToolFailure
  })
    .annotate(Tool.Readonly, readOnly)
    .annotate(Tool.Destructive, false)
    .annotate(Tool.OpenWorld, false)

const UCP_PRODUCTS =
  "Each product is one product model with its offers from several stores as variants; a variant's url is a tracked " +
  "affiliate link (the only link to give the shopper), prices are integers in minor units (12999 = 129.99), and " +
  "metadata['com.affiliate-commerce.offer'] holds the disclosure to show next to links, buying checks, and the " +
  "verified discount against the lowest price we observed in the previous 30 days (null: do not call it a discount)."

export const SearchCatalog = define(
  "search_catalog",
  SearchCatalogParams,
  "Search the product catalog (UCP catalog search). Give catalog.query (words) and/or catalog.filters (categories, " +
    "brand, price in minor units, availability); page with catalog.pagination.limit (default 10) and the cursor of " +
    "the previous answer. " +
    UCP_PRODUCTS
)

export const LookupCatalog = define(
  "lookup_catalog",
  LookupCatalogParams,
  "Fetch products by id (UCP catalog lookup): product ids (prod_...) or variant ids from earlier results. Unknown ids " +
    "are reported in messages (code not_found), never as an error. Each variant's inputs says which id found it. " +
    UCP_PRODUCTS
)

export const GetProduct = define(
  "get_product",
  GetProductParams,
  "Full detail of one product (UCP get_product) by product id (prod_...) or variant id, with every offer we know for " +
    "that model. An unknown id is a tool error with code product_not_found. " +
    UCP_PRODUCTS
)

export const ListDeals = define(
  "list_deals",
  ListDealsParams,
  "Current verified deals: products priced at least 10% below the lowest price we observed in the 30 days before " +
    "(20% with shorter history), best deal first. Optional category, store and limit (1..50, default 10). Each deal " +
    "has links.tracked (the buy link), the disclosure to show beside it, buyingChecks and assistantInstructions."
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
