import { Schema } from "effect"

// The UCP catalog response shapes, transcribed from the spec's schemas
// (Universal-Commerce-Protocol/ucp, source/schemas/shopping/catalog_search.json,
// catalog_lookup.json and the types they reference: product, variant, price,
// price_range, description, media, availability, pagination, message,
// input_correlation). No registry package carries them: @ucp-js/sdk 0.1.1 ships
// zod schemas for checkout, order and the discovery profile of 2026-01-11, none
// for the catalog. Required fields and types as the spec states them; extra
// fields pass (the spec allows them). Each export has `parse` (throws on a
// mismatch, naming the path) and `schema`.

const parser = <S extends Schema.Decoder<unknown>>(schema: S) => ({ schema, parse: Schema.decodeUnknownSync(schema) })
const optional = Schema.optionalKey

const Version = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/))
const Url = Schema.String.check(Schema.makeFilter((value: string) => URL.canParse(value), { expected: "a URL" }))
const Price = Schema.Struct({
  amount: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  currency: Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/))
})
const PriceRange = Schema.Struct({ min: Price, max: Price })
const Description = Schema.Struct({
  plain: optional(Schema.String),
  html: optional(Schema.String),
  markdown: optional(Schema.String)
}).check(
  Schema.makeFilter((value) => value.plain !== undefined || value.html !== undefined || value.markdown !== undefined, {
    expected: "one format"
  })
)
const Media = Schema.Struct({ type: Schema.String, url: Url, alt_text: optional(Schema.String) })
const Category = Schema.Struct({ value: Schema.String, taxonomy: optional(Schema.String) })
const Availability = Schema.Struct({ available: optional(Schema.Boolean), status: optional(Schema.String) })
const Link = Schema.Struct({ type: Schema.String, url: Url, title: optional(Schema.String) })
const Metadata = Schema.Record(Schema.String, Schema.Unknown)
const NonEmptyString = Schema.String.check(Schema.isMinLength(1))

const VariantFields = {
  id: NonEmptyString,
  title: Schema.String,
  description: Description,
  price: Price,
  list_price: optional(Price),
  url: optional(Url),
  availability: optional(Availability),
  condition: optional(Schema.String),
  categories: optional(Schema.Array(Category)),
  media: optional(Schema.Array(Media)),
  seller: optional(Schema.Struct({ name: optional(Schema.String), links: optional(Schema.Array(Link)) })),
  metadata: optional(Metadata)
}
const VariantSchema = Schema.Struct(VariantFields)
export const Variant = parser(VariantSchema)

const ProductFields = {
  id: NonEmptyString,
  title: Schema.String,
  description: Description,
  url: optional(Url),
  brand: optional(Schema.String),
  categories: optional(Schema.Array(Category)),
  price_range: PriceRange,
  list_price_range: optional(PriceRange),
  media: optional(Schema.Array(Media)),
  variants: Schema.NonEmptyArray(VariantSchema),
  metadata: optional(Metadata)
}
export const Product = parser(Schema.Struct(ProductFields))

const Envelope = (capability: string) =>
  Schema.Struct({
    version: Version,
    capabilities: Schema.Record(Schema.String, Schema.Array(Schema.Struct({ version: Version }))).check(
      Schema.makeFilter((map) => capability in map, { expected: capability })
    )
  })

const Message = Schema.Struct({
  type: Schema.Literals(["error", "warning", "info"]),
  code: optional(Schema.String),
  content: Schema.String
})

export const SearchResponse = parser(
  Schema.Struct({
    ucp: Envelope("dev.ucp.shopping.catalog.search"),
    products: Schema.Array(Schema.Struct(ProductFields)),
    pagination: optional(
      Schema.Struct({
        cursor: optional(Schema.String),
        has_next_page: Schema.Boolean,
        total_count: optional(Schema.Int)
      })
    ),
    messages: optional(Schema.Array(Message))
  })
)

const InputCorrelation = Schema.Struct({ id: Schema.String, match: Schema.Literals(["exact", "featured"]) })

export const LookupResponse = parser(
  Schema.Struct({
    ucp: Envelope("dev.ucp.shopping.catalog.lookup"),
    products: Schema.Array(
      Schema.Struct({
        ...ProductFields,
        variants: Schema.NonEmptyArray(
          Schema.Struct({ ...VariantFields, inputs: Schema.NonEmptyArray(InputCorrelation) })
        )
      })
    ),
    messages: optional(Schema.Array(Message))
  })
)

export const GetProductResponse = parser(
  Schema.Struct({
    ucp: Envelope("dev.ucp.shopping.catalog.lookup"),
    product: Schema.Struct(ProductFields),
    messages: optional(Schema.Array(Message))
  })
)

/** The business profile at /.well-known/ucp (services and capabilities keyed by reverse-domain name). */
export const DiscoveryProfile = parser(
  Schema.Struct({
    ucp: Schema.Struct({
      version: Version,
      services: Schema.Record(
        Schema.String,
        Schema.Struct({ version: Version, spec: Url, mcp: optional(Schema.Struct({ schema: Url, endpoint: Url })) })
      ),
      capabilities: Schema.Record(
        Schema.String,
        Schema.Array(Schema.Struct({ version: Version, spec: Url, schema: Url, extends: optional(Schema.String) }))
      )
    })
  })
)
