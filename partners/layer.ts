import { Layer } from "effect"
import { Partners } from "./Partners.ts"
import { RateLimits } from "./RateLimits.ts"

// Partner accounts. PartnerStatsQuery (needs PublicUrl) is provided where the
// HTTP routes are built.
export const layer = Partners.layer

/** The rate-limit buckets of one process that owns its store: in memory. */
export const singleProcess = RateLimits.layerSingleProcess
/** The rate-limit buckets of replicas sharing one store: in the store, one limit for all. */
export const replicas = RateLimits.layerReplicas

/** Partner accounts in memory, for auth and handler tests (no DuckDB). */
export { layerTest } from "./PartnersTest.ts"
