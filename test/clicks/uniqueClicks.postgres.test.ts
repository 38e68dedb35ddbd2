import { Effect, type Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { StoredClick } from "../../clicks/ClickJournal.ts"
import { decideUniques } from "../../clicks/uniqueClicks.ts"
import { Database } from "../../infra/Database.ts"
import { clicksLayer, type RunningFeature, startFeature } from "../support/featureLayers.ts"

// The database's unique-click decision (PostgreSQL, where replicas share it),
// batch by batch, against the rule UniqueWindow applies in memory on DuckDB.
const MINUTE = 60_000
// Now, so the hourly housekeeping never counts these windows as ended mid-test.
const T0 = Date.now()

const click = (at: number, ipHash: string, isBot = false): StoredClick => ({
  a: at,
  i: "UNIQUELINK01",
  p: null,
  t: "unique",
  h: ipHash,
  u: "ua",
  r: null,
  b: isBot,
  w: isBot ? "test" : null,
  q: false
})

describe("unique clicks decided in PostgreSQL", () => {
  let service: RunningFeature<Layer.Success<typeof clicksLayer>>
  beforeAll(async () => {
    service = await startFeature(clicksLayer)
  })
  afterAll(() => service.close())

  const decide = (clicks: ReadonlyArray<StoredClick>) =>
    service.run(Effect.flatMap(Database, (db) => db.transaction((tx) => decideUniques(tx, clicks))))

  it("judges a batch spanning two windows, then carries the moved start to the next batch", async () => {
    expect(await decide([click(T0, "v1"), click(T0 + 10 * MINUTE, "v1"), click(T0 + 61 * MINUTE, "v1")])).toEqual([
      true,
      false,
      true
    ])
    expect(await decide([click(T0 + 62 * MINUTE, "v1"), click(T0 + 121 * MINUTE, "v1")])).toEqual([false, true])
  })

  it("judges clicks of one batch in time order, whatever their order in the batch", async () => {
    expect(await decide([click(T0 + 5 * MINUTE, "v2"), click(T0, "v2")])).toEqual([false, true])
  })

  it("never gives a bot a unique slot, nor takes the visitor's from a human", async () => {
    expect(await decide([click(T0, "v3", true), click(T0 + MINUTE, "v3")])).toEqual([false, true])
  })

  it("counts a click older than the stored window start (a late batch of another replica) as a repeat", async () => {
    await decide([click(T0 + 30 * MINUTE, "v4")])
    expect(await decide([click(T0, "v4")])).toEqual([false])
  })

  it("gives one unique to one visitor's clicks spread over several transactions", async () => {
    const verdicts = await Promise.all(Array.from({ length: 6 }, (_, n) => decide([click(T0 + n, "v5")])))
    expect(verdicts.flat().filter(Boolean)).toHaveLength(1)
  })
})
