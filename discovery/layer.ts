import { Layer } from "effect"
import { DiscoverySearch } from "./DiscoverySearch.ts"
import { ExchangeRates } from "./ExchangeRates.ts"

export const layer = Layer.mergeAll(DiscoverySearch.layer, ExchangeRates.layer)
