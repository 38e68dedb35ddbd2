// What we implement of the Universal Commerce Protocol, in one place: the
// version we follow, the capability names, our own extension's namespace, and
// the profile served at /.well-known/ucp.

/** The UCP release whose profile shape (services and capabilities keyed by reverse-domain name) we follow. */
export const UCP_VERSION = "2026-01-23"

export const SEARCH_CAPABILITY = "dev.ucp.shopping.catalog.search"
export const LOOKUP_CAPABILITY = "dev.ucp.shopping.catalog.lookup"

/**
 * Our extras on products and variants (disclosure, buying checks, the
 * verified discount against our 30-day reference, the tracked link) live
 * under this key of `metadata`, the place the spec gives business-defined
 * data, so a strict UCP client sees only standard fields elsewhere.
 */
export const AFFILIATE_EXTENSION = "com.affiliate-commerce.offer"

/** The response envelope of a catalog operation: the version and the capability that answered. */
export const responseEnvelope = (capability: string) => ({
  version: UCP_VERSION,
  capabilities: { [capability]: [{ version: UCP_VERSION }] }
})

const capability = (name: string, page: string, schema: string) => [
  {
    version: UCP_VERSION,
    spec: `https://ucp.dev/specification/catalog/${page}`,
    schema: `https://ucp.dev/schemas/shopping/${schema}`
  }
]

/** The business profile: our MCP endpoint and the catalog capabilities served through it. */
export const discoveryProfile = (base: string) => ({
  ucp: {
    version: UCP_VERSION,
    services: {
      "dev.ucp.shopping": {
        version: UCP_VERSION,
        spec: "https://ucp.dev/specification/overview",
        mcp: { schema: "https://ucp.dev/services/shopping/mcp.openrpc.json", endpoint: `${base}/mcp` }
      }
    },
    capabilities: {
      [SEARCH_CAPABILITY]: capability(SEARCH_CAPABILITY, "search", "catalog_search.json"),
      [LOOKUP_CAPABILITY]: capability(LOOKUP_CAPABILITY, "lookup", "catalog_lookup.json"),
      [AFFILIATE_EXTENSION]: [
        {
          version: UCP_VERSION,
          extends: SEARCH_CAPABILITY,
          spec: `${base}/docs`,
          schema: `${base}/openapi.json`
        }
      ]
    }
  }
})
