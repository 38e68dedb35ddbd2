import type { FixtureProduct } from "../support/catalogFixtures.ts"

// The catalog of the deal-discovery tests: prices with a constructed history.

// Store domains of test/support/catalogFixture.ts: example-store.com -> CJ 8% CPS; fashion-house.com ->
// Partnerize 10% CPS (network EPC 40 wins the selection); insure-me.com -> CJ CPA 30; lamp-shop.com -> Awin 4%;
// shop.example.com has no programme.
const product = (itemId: string, fields: Omit<FixtureProduct, "itemId">): FixtureProduct => ({ itemId, ...fields })

export const PRODUCTS: ReadonlyArray<FixtureProduct> = [
  // price drops (history: [days ago, price]; the current price started `currentSinceDays` ago)
  product("pd-full", {
    title: "Trail Running Shoes",
    category: "Sports",
    productType: "Sports > Running > Shoes",
    price: 120,
    history: [
      [100, 200],
      [60, 180],
      [25, 160]
    ],
    currentSinceDays: 2,
    storeDomain: "example-store.com"
  }),
  product("pd-lamp", {
    title: "Brass Desk Lamp",
    category: "Home",
    price: 85,
    history: [[50, 100]],
    currentSinceDays: 1,
    storeDomain: "lamp-shop.com"
  }),
  product("pd-partial", { title: "Yoga Mat", category: "Sports", price: 38, history: [[10, 50]], currentSinceDays: 1 }),
  product("pd-new", { title: "Brand New Gadget", category: "Electronics", price: 10, wasPrice: 40 }),
  product("pd-raised-then-cut", {
    title: "Kettle",
    category: "Home",
    price: 100,
    history: [[2, 150]],
    currentSinceDays: 0
  }),
  product("pd-small", { title: "Toaster", category: "Home", price: 95, history: [[60, 100]], currentSinceDays: 1 }),
  // Once 200, but 100 for the last 60 days: a cheap "was higher" test passes it, the trusted 30-day low (100) does not.
  product("pd-rebound", {
    title: "Desk Chair",
    category: "Home",
    price: 95,
    history: [
      [90, 200],
      [60, 100]
    ],
    currentSinceDays: 1,
    storeDomain: "example-store.com"
  }),
  product("pd-old", { title: "Blender", category: "Home", price: 100, history: [[100, 200]], currentSinceDays: 45 }),
  product("pd-oos", {
    title: "Sold Out Skis",
    category: "Sports",
    price: 100,
    history: [[60, 300]],
    currentSinceDays: 1,
    availability: "out_of_stock",
    storeDomain: "example-store.com"
  }),
  // high commission
  product("hc-bike", { title: "Road Bike", category: "Sports", price: 500, storeDomain: "example-store.com" }),
  // The same bike from another store earns less: one offer per product, so it is never listed.
  product("hc-bike-other-store", {
    title: "Road Bike",
    category: "Sports",
    price: 480,
    storeDomain: "fashion-house.com"
  }),
  product("hc-coat", { title: "Wool Coat", category: "Fashion", price: 350, storeDomain: "fashion-house.com" }),
  product("hc-insurance", { title: "Travel Insurance", category: "Services", price: 40, storeDomain: "insure-me.com" }),
  product("hc-oos", {
    title: "Sold Out Bike",
    category: "Sports",
    price: 1000,
    availability: "out_of_stock",
    storeDomain: "example-store.com"
  }),
  // trending (no programme: they stay out of high_commission)
  product("tr-rising", { title: "Smart Watch", category: "Electronics", price: 150 }),
  product("tr-new", { title: "Phone Case", category: "Electronics", price: 15 }),
  product("tr-falling", { title: "Old Hit Speaker", category: "Electronics", price: 60 }),
  product("tr-stale", { title: "Last Week's Charger", category: "Electronics", price: 20 }),
  product("tr-oos", { title: "Sold Out Console", category: "Electronics", price: 400, availability: "out_of_stock" }),
  product("tr-real", { title: "Reading Lamp", category: "Home", price: 20, storeDomain: "lamp-shop.com" })
]

export const titles = (list: ReadonlyArray<{ title: string }>) => list.map((deal) => deal.title)
