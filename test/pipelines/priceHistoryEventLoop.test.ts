import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { watchMainThread } from "../../bench/support/threadCpu.ts"
import { tempDir } from "../support/TestService.ts"
import { count, runFeed, startWithFeeds } from "./support.ts"

// A price-history feed runs inside the service that answers redirects (the
// sample's runs daily): its rows are checked and loaded in DuckDB, not one by
// one on the event loop. Measured as in syncEventLoop.test.ts: the main
// thread's own CPU between two turns of a 2 ms timer, garbage-collector
// pauses taken out. Row by row in JavaScript these 50,000 rows held it 372 ms
// in one stretch (467 ms with the collector's pauses), the sample's 138,155
// about 0.9 s; checked in DuckDB, the longest stretch was 8.3-8.7 ms.

const ROWS = 50_000
/** The longest stretch of main-thread CPU allowed between two timer turns (ms). */
const BOUND_MS = 100

describe("a price-history run and the event loop", () => {
  const files = tempDir("price-history-")
  let env: Awaited<ReturnType<typeof startWithFeeds>>
  beforeAll(async () => {
    const lines = Array.from(
      { length: ROWS },
      (_, i) => `shop:${i % 5_000},2026-${String(1 + (i % 12)).padStart(2, "0")}-15T10:00:00Z,${(i % 900) + 9}.99,USD`
    )
    writeFileSync(join(files.dir, "history.csv"), ["product_id,observed_at,price,currency", ...lines].join("\n") + "\n")
    env = await startWithFeeds([
      {
        name: "history",
        kind: "price_history",
        format: "price-history-csv",
        location: join(files.dir, "history.csv")
      }
    ])
  })
  afterAll(async () => {
    await env.close()
    files.rm()
  })

  it(`loads ${ROWS.toLocaleString()} observations without holding the event loop over ${BOUND_MS} ms of CPU`, async () => {
    const watch = watchMainThread()
    const run = await runFeed(env.service, "history")
    const stretch = watch.stop()
    expect(run).toMatchObject({ status: "succeeded", rowsRead: ROWS, rowsLoaded: ROWS })
    expect(await count(env.service, "SELECT count(*) AS n FROM price_history WHERE run_id = $1", [run.id])).toBe(ROWS)
    expect(
      stretch.longestOutsideGcMs,
      `longest stretch ${stretch.longestMs.toFixed(1)} ms, ${stretch.longestOutsideGcMs.toFixed(1)} ms outside GC pauses`
    ).toBeLessThan(BOUND_MS)
  })
})
