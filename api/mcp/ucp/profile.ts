// What we implement of the Universal Commerce Protocol, in one place: the
// release we follow, the capability names, our own extension's name, the
// response envelope and the business profile served at /.well-known/ucp.

/**
 * The UCP release we follow: the first with the catalog capabilities
 * (search, lookup, get_product), and the newest published one. Our answers
 * are checked against its published schemas in the test suite.
 */
export const UCP_VERSION = "2026-04-08"

export const SEARCH_CAPABILITY = "dev.ucp.shopping.catalog.search"
export const LOOKUP_CAPABILITY = "dev.ucp.shopping.catalog.lookup"
export type CatalogCapability = typeof SEARCH_CAPABILITY | typeof LOOKUP_CAPABILITY

/**
 * Our extras on products and variants (the verified discount against our
 * 30-day reference, and in the full view the landing page, buying checks and
 * the store's unverified "was" price) live under this key of `metadata`, the
 * place the spec gives business-defined data. A reverse-domain name as the
 * spec's name pattern wants it (lower case, no hyphen).
 */
export const AFFILIATE_EXTENSION = "com.affiliate_commerce.offer"

/** Published documents of the release: spec and schema URLs carry the version segment. */
const UCP_SITE = `https://ucp.dev/${UCP_VERSION}`

/** The `ucp` member of a catalog answer: the version, the outcome, and the capability that answered. */
export const responseEnvelope = (capability: CatalogCapability, status: "success" | "error" = "success") => ({
  version: UCP_VERSION,
  status,
  capabilities: { [capability]: [{ version: UCP_VERSION }] }
})

const capability = (page: string, schema: string) => [
  {
    version: UCP_VERSION,
    spec: `${UCP_SITE}/specification/catalog/${page}`,
    schema: `${UCP_SITE}/schemas/shopping/${schema}`
  }
]

/**
 * The business profile: the MCP binding of the shopping service and the
 * catalog capabilities served through it. We take no payments (an agent buys
 * at the store through the tracked link), so `payment_handlers` is empty. Our
 * extension has no published schema of its own (it only adds `metadata`,
 * which the spec leaves to the business), so it names no spec or schema URL:
 * our OpenAPI document describes the JSON API, not a UCP schema.
 */
export const discoveryProfile = (base: string) => ({
  ucp: {
    version: UCP_VERSION,
    services: {
      "dev.ucp.shopping": [
        {
          version: UCP_VERSION,
          transport: "mcp",
          endpoint: `${base}/mcp`,
          spec: `${UCP_SITE}/specification/overview`,
          schema: `${UCP_SITE}/services/shopping/mcp.openrpc.json`
        }
      ]
    },
    capabilities: {
      [SEARCH_CAPABILITY]: capability("search", "catalog_search.json"),
      [LOOKUP_CAPABILITY]: capability("lookup", "catalog_lookup.json"),
      [AFFILIATE_EXTENSION]: [{ version: UCP_VERSION, extends: [SEARCH_CAPABILITY, LOOKUP_CAPABILITY] }]
    },
    payment_handlers: {}
  }
})
