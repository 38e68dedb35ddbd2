import { Layer } from "effect"
import { DiscoverySearch } from "./DiscoverySearch.ts"
import { ExchangeRates } from "./ExchangeRates.ts"

// Search orders prices of several currencies by the reference exchange rates (priceOrder.ts).
export const layer = DiscoverySearch.layer.pipe(Layer.provideMerge(ExchangeRates.layer))
