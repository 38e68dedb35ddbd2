import { describe, expect, it } from "vitest"
import {
  type BatchLimits,
  BATCH_LIMITS,
  batchChunks,
  batchPlanOf,
  CHUNK_LIMITS,
  FIRST_CHUNK_LIMITS,
  BYTES_PER_BATCH,
  modelBatches,
  type ModelSize
} from "../../../pipelines/search/modelBatches.ts"

/** Models of these offer counts, each offer of `bytesPerOffer` bytes. */
const sized = (offers: ReadonlyArray<number>, bytesPerOffer = 1): Array<ModelSize> =>
  offers.map((n) => ({ offers: n, bytes: n * bytesPerOffer }))
const limits = (models: number, offers: number, bytes = Number.POSITIVE_INFINITY): BatchLimits => ({
  models,
  offers,
  bytes
})

describe("modelBatches", () => {
  it("cuts consecutive ranks at the model limit", () => {
    expect(modelBatches(sized([1, 1, 1, 1, 1]), limits(2, 100))).toEqual([
      { from: 0, to: 2 },
      { from: 2, to: 4 },
      { from: 4, to: 5 }
    ])
  })

  it("cuts before the offer limit is passed, and sends a model over it alone", () => {
    expect(modelBatches(sized([3, 3, 3, 12, 1, 1]), limits(100, 7))).toEqual([
      { from: 0, to: 2 },
      { from: 2, to: 3 },
      { from: 3, to: 4 },
      { from: 4, to: 6 }
    ])
  })

  it("cuts before the byte limit is passed, and sends a model over it alone", () => {
    const sizes = [
      { offers: 1, bytes: 400 },
      { offers: 1, bytes: 500 },
      { offers: 1, bytes: 2_000 },
      { offers: 1, bytes: 100 },
      { offers: 1, bytes: 100 }
    ]
    expect(modelBatches(sizes, limits(100, 100, 1_000))).toEqual([
      { from: 0, to: 2 },
      { from: 2, to: 3 },
      { from: 3, to: 5 }
    ])
  })

  it("keeps a full batch of the longest descriptions a feed may carry within the byte budget", () => {
    // 20,000 offers of 10,000-character descriptions: ~200 MB in one batch by offers alone.
    const batches = modelBatches(
      sized(
        Array.from({ length: 20_000 }, () => 1),
        11_000
      )
    )
    expect(batches.length).toBeGreaterThan(1)
    for (const batch of batches) expect((batch.to - batch.from) * 11_000).toBeLessThanOrEqual(BYTES_PER_BATCH)
    // A usual offer (~1.2 KB estimated) is still cut by offers, as before.
    expect(
      modelBatches(
        sized(
          Array.from({ length: 40_000 }, () => 1),
          1_200
        )
      )
    ).toHaveLength(2)
    expect(BATCH_LIMITS.offers * 1_200).toBeLessThanOrEqual(BYTES_PER_BATCH)
  })

  it("covers every model exactly once, within every limit unless a model alone exceeds them", () => {
    const offers = Array.from({ length: 1_000 }, (_, i) => 1 + ((i * 7919) % 97))
    const sizes = offers.map((n, i) => ({ offers: n, bytes: n * (100 + ((i * 31) % 900)) }))
    const batches = modelBatches(sizes, limits(50, 500, 200_000))
    expect(batches[0].from).toBe(0)
    expect(batches.at(-1)!.to).toBe(offers.length)
    for (const [i, batch] of batches.entries()) {
      if (i > 0) expect(batch.from).toBe(batches[i - 1].to)
      const part = sizes.slice(batch.from, batch.to)
      expect(batch.to - batch.from).toBeLessThanOrEqual(50)
      if (part.length > 1) {
        expect(part.reduce((sum, model) => sum + model.offers, 0)).toBeLessThanOrEqual(500)
        expect(part.reduce((sum, model) => sum + model.bytes, 0)).toBeLessThanOrEqual(200_000)
      }
    }
  })

  it("has nothing to send for no models", () => {
    expect(modelBatches([])).toEqual([])
  })

  it("groups consecutive batches into chunks within the offer limit, a batch over it alone", () => {
    const sizes = sized([3, 3, 3, 12, 1, 1])
    const batches = modelBatches(sizes, limits(100, 7))
    expect(batchChunks(batches, sizes, limits(Infinity, 8))).toEqual([
      [{ from: 0, to: 2 }],
      [{ from: 2, to: 3 }],
      [{ from: 3, to: 4 }],
      [{ from: 4, to: 6 }]
    ])
    expect(batchChunks(batches, sizes, limits(Infinity, 100))).toEqual([batches])
    expect(batchChunks(batches, sizes, limits(Infinity, 15)).flat()).toEqual(batches)
  })

  it("groups consecutive batches into chunks within the byte limit", () => {
    const sizes = sized([3, 3, 3, 12, 1, 1], 10)
    const batches = modelBatches(sizes, limits(100, 7))
    expect(batchChunks(batches, sizes, limits(Infinity, 100, 80))).toEqual([
      [{ from: 0, to: 2 }],
      [{ from: 2, to: 3 }],
      [{ from: 3, to: 4 }],
      [{ from: 4, to: 6 }]
    ])
    expect(batchChunks(batches, sizes, limits(Infinity, 100, 90)).flat()).toEqual(batches)
  })

  it("keeps a rebuild's first chunk small, so Meilisearch gets its first batch early", () => {
    const sizes = sized([3, 3, 3, 12, 1, 1])
    const batches = modelBatches(sizes, limits(100, 7))
    expect(batchChunks(batches, sizes, limits(Infinity, 100), limits(Infinity, 7))).toEqual([
      [{ from: 0, to: 2 }],
      batches.slice(1)
    ])
    expect(batchChunks(batches, sizes, limits(Infinity, 100), limits(Infinity, 7)).flat()).toEqual(batches)
  })

  it("plans from the sizes file DuckDB writes as the sync's own limits plan from the sizes", () => {
    // 30,000 models of 1-6 offers: several batches, the first chunk one batch; the file lists them by rank, out of order too.
    const sizes = Array.from({ length: 30_000 }, (_, i) => ({ offers: 1 + (i % 6), bytes: 1_000 + 37 * (i % 101) }))
    const lines = sizes.map((size, i) => `${i + 1},${size.offers},${size.bytes}.0`)
    const plan = batchChunks(modelBatches(sizes), sizes, CHUNK_LIMITS, FIRST_CHUNK_LIMITS)
    expect(plan.flat().length).toBeGreaterThan(2)
    expect(batchPlanOf(`${lines.join("\n")}\n`)).toEqual(plan)
    expect(batchPlanOf(`${[...lines].reverse().join("\n")}\n`)).toEqual(plan)
    expect(batchPlanOf("")).toEqual([])
  })

  it("refuses a sizes file with a model missing, rather than batch the wrong ranks", () => {
    expect(() => batchPlanOf("1,2,100.0\n3,1,50.0\n")).toThrow(/no model ranked 2 of 3/)
  })
})
