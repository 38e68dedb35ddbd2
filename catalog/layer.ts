import { CatalogQueries } from "./CatalogQueries.ts"

export const layer = CatalogQueries.layer

/** In-memory catalog for handler tests (no DuckDB). */
export { layerTest } from "./CatalogQueriesTest.ts"
