import { Effect, Fiber } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Staging } from "../../infra/Staging.ts"
import { PipelineRunner } from "../../pipelines/PipelineRunner.ts"
import { products, query, runFeed, startWithFeeds, tsv } from "./support.ts"
import { tempDir } from "../support/TestService.ts"

// A concurrent reader must see the old feed or the new one, never a mix:
// during a successful replacement and during one that dies inside the load.
describe("atomic feed replacement", () => {
  const files = tempDir("atomic-")
  const file = join(files.dir, "big.tsv")
  let env: Awaited<ReturnType<typeof startWithFeeds>>
  // Large enough that a load takes well over the 20 ms the interruption test
  // waits inside it, so the interruption lands before the COMMIT (about
  // 230 ms on a quiet 2-core machine); no larger, since each successful run
  // also waits for its search sync, which grows with the products.
  const N = 10_000
  const snapshot = async () => {
    const [row] = await query<{ n: bigint; lo: string; hi: string }>(
      env.service,
      "SELECT count(*) AS n, min(price)::VARCHAR AS lo, max(price)::VARCHAR AS hi FROM products WHERE feed = 'big'"
    )
    return `${Number(row.n)}@${row.lo}-${row.hi}`
  }
  /** Reads continuously until `done` settles; returns every distinct snapshot seen. */
  const watch = async (done: Promise<unknown>) => {
    const seen = new Set<string>()
    let finished = false
    void done.finally(() => {
      finished = true
    })
    while (!finished) {
      seen.add(await snapshot())
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
    seen.add(await snapshot())
    return seen
  }

  beforeAll(async () => {
    writeFileSync(file, tsv(products(N, 0, "10.00 USD")))
    env = await startWithFeeds([
      { name: "big", kind: "products", format: "gmc-tsv", location: file, options: { store: "Big" } }
    ])
    expect((await runFeed(env.service, "big")).status).toBe("succeeded")
  })
  afterAll(async () => {
    await env.close()
    files.rm()
  })

  it("a reader during a successful run sees the old feed, then the new one, never a mix", async () => {
    writeFileSync(file, tsv(products(N + 500, 100, "20.00 USD")))
    const run = runFeed(env.service, "big")
    const seen = await watch(run)
    expect((await run).status).toBe("succeeded")
    expect([...seen].every((s) => s === `${N}@10.0000-10.0000` || s === `${N + 500}@20.0000-20.0000`)).toBe(true)
    expect(seen.has(`${N + 500}@20.0000-20.0000`)).toBe(true)
  })

  it("a reader during a run interrupted mid-load (and one failing validation) only ever sees the previous data", async () => {
    const before = await snapshot()
    writeFileSync(file, tsv(products(N, 0, "30.00 USD")))
    const interrupted = env.service.run(
      Effect.gen(function* () {
        const runner = yield* PipelineRunner
        const fiber = yield* Effect.forkChild(runner.run("big", "manual"))
        // wait until the run is loading, give it a moment inside DuckDB, then pull the plug
        while (runner.live().find((p) => p.feed === "big")?.phase !== "load") yield* Effect.sleep("2 millis")
        yield* Effect.sleep("20 millis")
        yield* Fiber.interrupt(fiber)
      })
    )
    const seen = await watch(interrupted)
    expect([...seen]).toEqual([before])
    const [last] = await query<{ status: string; error: string }>(
      env.service,
      "SELECT status, error FROM pipeline_runs WHERE feed = 'big' ORDER BY started_at DESC LIMIT 1"
    )
    expect(last.status).toBe("interrupted")
    // no staging table outlives its run (staging: the DuckDB file, also beside PostgreSQL)
    const stagingTables = await env.service.run(
      Staging.use((staging) => staging.query("SELECT table_name FROM duckdb_tables() WHERE table_name LIKE '_stage%'"))
    )
    expect(stagingTables).toEqual([])

    writeFileSync(file, tsv(products(N, 0, "n/a")))
    const failing = runFeed(env.service, "big")
    const seenFailing = await watch(failing)
    expect((await failing).status).toBe("failed")
    expect([...seenFailing]).toEqual([before])
  })
})
