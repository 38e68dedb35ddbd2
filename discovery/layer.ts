import { Layer } from "effect"
import { DiscoverySearch } from "./DiscoverySearch.ts"
import { ExchangeRates } from "./ExchangeRates.ts"

// the search orders prices of several currencies by the reference rates
export const layer = DiscoverySearch.layer.pipe(Layer.provideMerge(ExchangeRates.layer))
