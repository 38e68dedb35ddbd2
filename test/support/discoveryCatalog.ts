import { SearchSync } from "../../pipelines/search/SearchSync.ts"
import { insertProducts, type FixtureProduct } from "./catalogFixtures.ts"
import { startService } from "./TestService.ts"

// A small hand-made catalog for the discovery-feed tests: enough products of
// each kind that relevance, price filters, stock and deals can be asserted.
// History entries are [days ago, price]; the current price started `currentSinceDays` ago.
export const discoveryCatalog: ReadonlyArray<FixtureProduct> = [
  // earbuds and headphones
  {
    itemId: "eb-sport",
    title: "PulseFit Wireless Sport Earbuds, sweatproof, for running and gym",
    brand: "PulseFit",
    category: "Electronics",
    productType: "Electronics > Audio > Headphones",
    price: 129,
    salePrice: 79,
    wasPrice: 159,
    history: [
      [60, 129],
      [20, 119]
    ],
    currentSinceDays: 1,
    store: "SoundHub",
    storeDomain: "soundhub.example.com"
  },
  {
    itemId: "eb-budget",
    title: "Budget Bluetooth Earphones",
    brand: "Tinny",
    category: "Electronics",
    productType: "Electronics > Audio > Headphones",
    price: 19.99,
    store: "SoundHub",
    storeDomain: "soundhub.example.com"
  },
  {
    itemId: "eb-premium",
    title: "AuraSound Pro Noise Cancelling Wireless Earbuds",
    brand: "AuraSound",
    category: "Electronics",
    productType: "Electronics > Audio > Headphones",
    price: 249,
    store: "Amazon",
    storeDomain: "www.amazon.com",
    history: [[45, 279]],
    currentSinceDays: 3
  },
  {
    itemId: "eb-oos",
    title: "RunBeat In-Ear Headphones for Running",
    brand: "RunBeat",
    category: "Electronics",
    productType: "Electronics > Audio > Headphones",
    price: 59,
    availability: "out_of_stock",
    store: "SoundHub"
  },
  { itemId: "hp-studio", title: "Studio Over-Ear Headphones", brand: "AuraSound", category: "Electronics", price: 199 },
  // TVs
  {
    itemId: "tv-55",
    title: "Vistara 55 inch 4K UHD Smart Television",
    brand: "Vistara",
    category: "Electronics",
    productType: "Electronics > TV & Video > Televisions",
    price: 649,
    salePrice: 449,
    history: [[50, 649]],
    currentSinceDays: 2,
    store: "BigScreen",
    storeDomain: "bigscreen.example.com"
  },
  {
    itemId: "tv-43",
    title: "Vistara 43 inch 4K Smart TV",
    brand: "Vistara",
    category: "Electronics",
    productType: "Electronics > TV & Video > Televisions",
    price: 329,
    store: "BigScreen"
  },
  // the same TV at a second store: one result per product
  {
    itemId: "tv-43-other",
    title: "Vistara 43 inch 4K Smart TV",
    brand: "Vistara",
    category: "Electronics",
    productType: "Electronics > TV & Video > Televisions",
    price: 339,
    store: "OtherShop"
  },
  {
    itemId: "tv-65",
    title: "Lumina 65 inch 4K OLED TV",
    brand: "Lumina",
    category: "Electronics",
    productType: "Electronics > TV & Video > Televisions",
    price: 1499,
    store: "BigScreen"
  },
  {
    itemId: "tv-32",
    title: "Vistara 32 inch HD TV",
    brand: "Vistara",
    category: "Electronics",
    price: 179,
    store: "BigScreen"
  },
  // laptops
  {
    itemId: "nb-14",
    title: "Orion 14 Notebook, 16GB RAM, 512GB SSD",
    brand: "Orion",
    category: "Electronics",
    productType: "Electronics > Computers > Laptops",
    price: 899,
    history: [[40, 1099]],
    currentSinceDays: 5
  },
  // coffee
  {
    itemId: "cf-grinder",
    title: "Burr Coffee Grinder with 18 grind settings",
    brand: "BrewMaster",
    category: "Home & Kitchen",
    productType: "Home & Kitchen > Coffee > Grinders",
    price: 59,
    store: "KitchenCo",
    storeDomain: "kitchenco.example.com"
  },
  {
    itemId: "cf-espresso",
    title: "Espresso Machine 15 bar with milk frother",
    brand: "BrewMaster",
    category: "Home & Kitchen",
    productType: "Home & Kitchen > Coffee > Espresso Machines",
    price: 299,
    salePrice: 229,
    history: [[40, 299]],
    currentSinceDays: 1,
    store: "KitchenCo"
  },
  {
    itemId: "cf-mug",
    title: "World's Best Dad Coffee Mug",
    brand: "Giftly",
    category: "Home & Kitchen",
    price: 14.99,
    store: "GiftShop"
  },
  { itemId: "cf-beans", title: "Single Origin Coffee Beans Gift Set", brand: "BeanCo", category: "Grocery", price: 34 },
  // toys
  {
    itemId: "lego-city",
    title: "LEGO City Fire Station building set, ages 9+",
    brand: "LEGO",
    category: "Toys & Games",
    productType: "Toys & Games > Building Toys",
    price: 89.99,
    salePrice: 69.99,
    history: [[35, 89.99]],
    currentSinceDays: 4,
    store: "ToyWorld",
    storeDomain: "toyworld.example.com"
  },
  {
    itemId: "lego-tech",
    title: "LEGO Technic Race Car for kids 10 and up",
    brand: "LEGO",
    category: "Toys & Games",
    productType: "Toys & Games > Building Toys",
    price: 49.99,
    store: "ToyWorld"
  },
  {
    itemId: "sci-kit",
    title: "Kids Science Kit: 30 experiments for ages 8-12",
    brand: "Explorer",
    category: "Toys & Games",
    price: 29.99,
    store: "ToyWorld"
  },
  { itemId: "doll", title: "Fashion Doll with accessories", brand: "Dolly", category: "Toys & Games", price: 24.99 },
  // other stores and currencies
  {
    feed: "uk",
    itemId: "kettle",
    title: "Stainless Steel Electric Kettle",
    brand: "Brewster",
    category: "Home & Kitchen",
    price: 39,
    currency: "GBP",
    store: "Argos",
    storeDomain: "www.argos.co.uk"
  },
  {
    feed: "eu",
    itemId: "yoga-mat",
    title: "Yoga Mat, non-slip, 6 mm",
    brand: "Zenfit",
    category: "Sports & Outdoors",
    price: 35,
    salePrice: 24,
    currency: "EUR",
    history: [[31, 35]],
    currentSinceDays: 2,
    store: "SportEU"
  },
  {
    feed: "eu",
    itemId: "yoga-blocks",
    title: "Yoga Blocks, set of 2",
    brand: "Zenfit",
    category: "Sports & Outdoors",
    price: 18,
    currency: "EUR",
    store: "SportEU"
  },
  {
    itemId: "xss",
    title: "<script>alert('x')</script> Tricky \"Quoted\" Lamp & Shade",
    brand: "Evil",
    category: "Home & Kitchen",
    price: 20,
    salePrice: 10,
    history: [[40, 20]],
    currentSinceDays: 1,
    store: "Odd <Shop>",
    image: 'https://img.example.com/"onerror="alert(1).jpg'
  },
  // a feed "was" price with no history: never a deal
  {
    itemId: "fake-sale",
    title: "Robot Vacuum Cleaner",
    brand: "Sweepo",
    category: "Home & Kitchen",
    price: 199,
    wasPrice: 599,
    store: "KitchenCo"
  }
]

/** The whole service over this catalog, its products already in Meilisearch. */
export const startDiscoveryService = async () => {
  const service = await startService()
  await service.run(insertProducts(discoveryCatalog))
  await service.run(SearchSync.use((sync) => sync.syncProducts()))
  return service
}
