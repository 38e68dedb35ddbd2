import { CatalogQueries } from "./CatalogQueries.ts"

export const layer = CatalogQueries.layer
