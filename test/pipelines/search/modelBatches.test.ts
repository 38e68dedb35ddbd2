import { describe, expect, it } from "vitest"
import { batchChunks, modelBatches } from "../../../pipelines/search/modelBatches.ts"

describe("modelBatches", () => {
  it("cuts consecutive ranks at the model limit", () => {
    expect(modelBatches([1, 1, 1, 1, 1], 2, 100)).toEqual([
      { from: 0, to: 2 },
      { from: 2, to: 4 },
      { from: 4, to: 5 }
    ])
  })

  it("cuts before the offer limit is passed, and sends a model over it alone", () => {
    expect(modelBatches([3, 3, 3, 12, 1, 1], 100, 7)).toEqual([
      { from: 0, to: 2 },
      { from: 2, to: 3 },
      { from: 3, to: 4 },
      { from: 4, to: 6 }
    ])
  })

  it("covers every model exactly once, within both limits unless a model alone exceeds them", () => {
    const offers = Array.from({ length: 1_000 }, (_, i) => 1 + ((i * 7919) % 97))
    const batches = modelBatches(offers, 50, 500)
    expect(batches[0].from).toBe(0)
    expect(batches.at(-1)!.to).toBe(offers.length)
    for (const [i, batch] of batches.entries()) {
      if (i > 0) expect(batch.from).toBe(batches[i - 1].to)
      const size = offers.slice(batch.from, batch.to).reduce((a, b) => a + b, 0)
      expect(batch.to - batch.from).toBeLessThanOrEqual(50)
      if (batch.to - batch.from > 1) expect(size).toBeLessThanOrEqual(500)
    }
  })

  it("has nothing to send for no models", () => {
    expect(modelBatches([])).toEqual([])
  })

  it("groups consecutive batches into chunks within the offer limit, a batch over it alone", () => {
    const offers = [3, 3, 3, 12, 1, 1]
    const batches = modelBatches(offers, 100, 7)
    expect(batchChunks(batches, offers, 8)).toEqual([
      [{ from: 0, to: 2 }],
      [{ from: 2, to: 3 }],
      [{ from: 3, to: 4 }],
      [{ from: 4, to: 6 }]
    ])
    expect(batchChunks(batches, offers, 100)).toEqual([batches])
    expect(batchChunks(batches, offers, 15).flat()).toEqual(batches)
  })

  it("keeps a rebuild's first chunk small, so Meilisearch gets its first batch early", () => {
    const offers = [3, 3, 3, 12, 1, 1]
    const batches = modelBatches(offers, 100, 7)
    expect(batchChunks(batches, offers, 100, 7)).toEqual([[{ from: 0, to: 2 }], batches.slice(1)])
    expect(batchChunks(batches, offers, 100, 7).flat()).toEqual(batches)
  })
})
