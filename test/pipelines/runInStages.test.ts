import { describe, expect, it } from "vitest"
import type { FeedDefinition } from "../../pipelines/FeedConfig.ts"
import { stagesOf } from "../../pipelines/runInStages.ts"

// Feeds run together wait only for the kinds their loads read: networks, then
// programmes, then every other kind side by side, each stage in the given order.
describe("stages of a run of every feed", () => {
  const feed = (name: string, kind: string) => ({ name, kind }) as unknown as FeedDefinition
  it("networks, then programmes, then products, prices and conversions together", () => {
    const feeds = [
      feed("conv", "conversions"),
      feed("shop", "products"),
      feed("progs", "programs"),
      feed("prices", "price_history"),
      feed("nets", "networks"),
      feed("shop-2", "products")
    ]
    expect(stagesOf(feeds).map((stage) => stage.map((one) => one.name))).toEqual([
      ["nets"],
      ["progs"],
      ["conv", "shop", "prices", "shop-2"]
    ])
  })
  it("leaves out the stages no feed is in", () => {
    expect(stagesOf([feed("shop", "products")]).map((stage) => stage.map((one) => one.name))).toEqual([["shop"]])
  })
})
