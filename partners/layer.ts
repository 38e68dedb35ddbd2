import { Partners } from "./Partners.ts"

// Partner accounts. PartnerStatsQuery (needs PublicUrl) and RateLimits (one
// instance per HTTP server) are provided where the HTTP routes are built.
export const layer = Partners.layer

/** Partner accounts in memory, for auth and handler tests (no DuckDB). */
export { layerTest } from "./PartnersTest.ts"
