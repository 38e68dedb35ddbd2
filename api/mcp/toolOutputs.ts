import type { JsonSchema } from "effect"

// Each tool's title and outputSchema: what its structuredContent holds, for
// clients that check answers (the official SDK client validates every answer
// against it). Self-contained JSON Schema (no $ref), readable by any draft.
// The UCP tools answer the catalog response of UCP, or UCP's error response
// (`ucp.status` "error" with error messages); our own tools answer the body
// of the JSON endpoint they mirror, or the JSON API's error body.

type Json = JsonSchema.JsonSchema
const object = (properties: Record<string, Json>, required: ReadonlyArray<string> = []): Json => ({
  type: "object",
  properties,
  ...(required.length > 0 ? { required: [...required] } : {})
})
const text: Json = { type: "string" }
const array = (items: Json): Json => ({ type: "array", items })

const price = object({ amount: { type: "integer" }, currency: text }, ["amount", "currency"])
const message = object(
  {
    type: { enum: ["error", "warning", "info"] },
    code: text,
    content: text,
    severity: text,
    presentation: text,
    path: text
  },
  ["type", "content"]
)
const ucp = object({ version: text, status: { enum: ["success", "error"] }, capabilities: { type: "object" } }, [
  "version"
])
const variant = object(
  {
    id: text,
    title: text,
    description: { type: "object" },
    url: text,
    price,
    list_price: price,
    availability: object({ available: { type: "boolean" }, status: text }),
    condition: text,
    seller: object({ name: text }),
    metadata: { type: "object" }
  },
  ["id", "title", "description", "price"]
)
const product = object(
  {
    id: text,
    title: text,
    description: { type: "object" },
    url: text,
    price_range: object({ min: price, max: price }, ["min", "max"]),
    variants: array(variant),
    metadata: { type: "object" }
  },
  ["id", "title", "description", "price_range", "variants"]
)
const messages = array(message)
/** UCP's error response: no resource, `ucp.status` "error", why in messages. */
const ucpError = object({ ucp: object({ status: { const: "error" } }, ["status"]), messages }, ["ucp", "messages"])
// MCP wants an object root; the alternatives below it.
const ucpAnswer = (success: Json): Json => ({ type: "object", anyOf: [success, ucpError] })

const errorBody = object({ error: object({ code: text, message: text, details: {} }, ["code", "message"]) }, ["error"])
const ownAnswer = (success: Json): Json => ({ type: "object", anyOf: [success, errorBody] })

export const TOOL_OUTPUTS: Record<string, { readonly title: string; readonly schema: Json }> = {
  search_catalog: {
    title: "Search products",
    schema: ucpAnswer(
      object(
        {
          ucp,
          products: array(product),
          pagination: object({ has_next_page: { type: "boolean" }, cursor: text }),
          messages
        },
        ["ucp", "products"]
      )
    )
  },
  lookup_catalog: {
    title: "Look up products by id",
    schema: ucpAnswer(object({ ucp, products: array(product), messages }, ["ucp", "products"]))
  },
  get_product: {
    title: "Get one product with every offer",
    schema: ucpAnswer(object({ ucp, product, messages }, ["ucp", "product"]))
  },
  list_deals: {
    title: "List verified deals",
    schema: ownAnswer(
      object({ disclosure: text, count: { type: "integer" }, deals: array({ type: "object" }) }, ["deals"])
    )
  },
  match_link: {
    title: "Make a tracking link for a merchant URL",
    schema: ownAnswer(object({ matched: { type: "boolean" } }, ["matched"]))
  },
  find_programs: {
    title: "Find affiliate programmes",
    schema: ownAnswer(object({ data: array({ type: "object" }) }, ["data"]))
  },
  partner_stats: {
    title: "Partner performance",
    schema: ownAnswer(object({ partner: { type: "object" }, totals: { type: "object" } }, ["partner"]))
  }
}
