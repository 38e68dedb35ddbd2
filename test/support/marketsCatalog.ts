import { DiscoverySearch } from "../../discovery/DiscoverySearch.ts"
import { SearchSync } from "../../pipelines/search/SearchSync.ts"
import { type FixtureProduct, insertProducts } from "./catalogFixtures.ts"
import { startService } from "./TestService.ts"

// A small catalog sold in four markets, for the market tests (HTTP and
// MCP): the same headphones model in the US (USD), the UK (GBP), Germany and
// France (both EUR, each from its own store), each a deal, and a few
// headphones sold in one market only.

export const XM5 = {
  title: "Sony WH-1000XM5 Wireless Noise Cancelling Headphones",
  brand: "Sony",
  gtin: "4548736132610"
}
const deal = { history: [[40, 400]] as ReadonlyArray<readonly [number, number]>, currentSinceDays: 1 }

export const MARKETS_CATALOG: ReadonlyArray<FixtureProduct> = [
  {
    feed: "us",
    itemId: "xm5-us",
    ...XM5,
    category: "Electronics",
    price: 279.99,
    currency: "USD",
    store: "BestBuy",
    ...deal
  },
  {
    feed: "uk",
    itemId: "xm5-uk",
    ...XM5,
    category: "Electronics",
    price: 249,
    currency: "GBP",
    store: "Currys",
    ...deal
  },
  {
    feed: "eu",
    itemId: "xm5-de",
    ...XM5,
    category: "Electronics",
    price: 289,
    currency: "EUR",
    store: "MediaMarkt",
    countries: "DE",
    ...deal
  },
  {
    feed: "eu",
    itemId: "xm5-fr",
    ...XM5,
    category: "Electronics",
    price: 299,
    currency: "EUR",
    store: "Fnac",
    countries: "FR",
    ...deal
  },
  {
    feed: "us",
    itemId: "budget-us",
    title: "Budget Wired Headphones",
    brand: "Tinny",
    category: "Electronics",
    price: 79.99,
    currency: "USD",
    store: "BestBuy"
  },
  {
    feed: "uk",
    itemId: "studio-uk",
    title: "Studio Monitor Headphones",
    brand: "Audiotek",
    category: "Electronics",
    price: 120,
    currency: "GBP",
    store: "Currys"
  },
  {
    feed: "uk",
    itemId: "kids-uk",
    title: "Kids Volume Limited Headphones",
    brand: "Tinny",
    category: "Electronics",
    price: 19,
    currency: "GBP",
    store: "Argos"
  },
  {
    feed: "eu",
    itemId: "sport-de",
    title: "Sport Bluetooth Headphones",
    brand: "Pulse",
    category: "Electronics",
    price: 59,
    currency: "EUR",
    store: "MediaMarkt",
    countries: "DE"
  }
]

export const startMarketsService = async (overrides: Parameters<typeof startService>[0] = {}) => {
  const service = await startService(overrides)
  await service.run(insertProducts(MARKETS_CATALOG))
  await service.run(SearchSync.use((sync) => sync.syncProducts()))
  await service.run(DiscoverySearch.use((search) => search.refreshVocabulary))
  return service
}
