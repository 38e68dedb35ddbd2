import { DiscoverySearch } from "./DiscoverySearch.ts"

export const layer = DiscoverySearch.layer
