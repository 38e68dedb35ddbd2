import { Effect, Option, Redacted } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import postgres from "postgres"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { READ_CATALOG_VERSION_SQL } from "../../infra/CatalogVersion.ts"
import { Metrics } from "../../infra/Metrics.ts"
import { WorkerLock } from "../../pipelines/WorkerLock.ts"
import { waitFor } from "../support/waitFor.ts"
import { products, query, runFeed, startWithFeeds, tsv } from "./support.ts"

// A feed run under way when PostgreSQL drops the session holding this
// worker's pipeline lock must not publish: another worker may take the lock
// and run the same feeds. The feed is served by a loopback stub that holds
// its answer while the test terminates the lock's session (from a connection
// of its own) and waits for PostgreSQL to free the lock; then the run loads
// the feed and reaches its publish, which must roll back.
describe("publish fenced by the pipeline lock", () => {
  let stub: Server
  let body = tsv(products(3, 0, "10.00 USD"))
  let held: { arrived: () => void; release: Promise<void> } | undefined
  let env: Awaited<ReturnType<typeof startWithFeeds>>
  let sql: postgres.Sql
  let terminated: number | undefined

  const isHeld = () => env.service.run(WorkerLock.use((lock) => Effect.succeed(lock.isHeld())))
  const PRICES = "SELECT id, CAST(current_price AS VARCHAR) AS price FROM products ORDER BY id"
  const version = async () => (await sql.unsafe<Array<{ version: string }>>(READ_CATALOG_VERSION_SQL))[0]!.version
  /** The backends holding an advisory lock in this test's database (advisory locks are per database). */
  const lockHolders = async () =>
    (
      await sql<Array<{ pid: number }>>`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`
    ).map((row) => row.pid)

  beforeAll(async () => {
    stub = createServer((_req, res) => {
      const hold = held
      const answer = () => res.writeHead(200, { "content-type": "text/tab-separated-values" }).end(body)
      if (hold === undefined) return answer()
      hold.arrived()
      void hold.release.then(answer)
    })
    await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve))
    const port = (stub.address() as AddressInfo).port
    env = await startWithFeeds([
      {
        name: "shop",
        kind: "products",
        format: "gmc-tsv",
        location: `http://127.0.0.1:${port}/feed.tsv`,
        options: { store: "Shop" }
      }
    ])
    const url = Option.getOrThrow(env.service.config.databaseUrl)
    sql = postgres(Redacted.value(url), { max: 2, onnotice: () => {} })
  })
  afterAll(async () => {
    await env?.close()
    await sql?.end({ timeout: 5 })
    await new Promise((resolve) => stub.close(resolve))
  })

  it("a run publishes while the worker holds the lock", async () => {
    expect(await isHeld()).toBe(true)
    const before = await version()
    expect(await runFeed(env.service, "shop")).toMatchObject({ status: "succeeded", rowsLoaded: 3 })
    expect(BigInt(await version())).toBe(BigInt(before) + 1n)
    expect((await query(env.service, PRICES)).map((row) => row.price)).toEqual(["10.0000", "10.0000", "10.0000"])
  })

  /** Holds the stub's next answer: resolves once that request has arrived; `release` answers it. */
  const holdNextFetch = () => {
    let arrived!: () => void
    const fetching = new Promise<void>((resolve) => (arrived = resolve))
    let release!: () => void
    held = { arrived, release: new Promise<void>((resolve) => (release = resolve)) }
    return {
      fetching,
      release: () => {
        held = undefined
        release()
      }
    }
  }
  /** Terminates the lock's session from another connection and waits until PostgreSQL has freed the lock. */
  const terminateLockSession = async () => {
    const [holder] = await lockHolders()
    expect(holder).toBeDefined()
    terminated = holder
    await sql`SELECT pg_terminate_backend(${holder!})`
    // pg_terminate_backend only signals: the lock is free once the backend has exited.
    await waitFor(async () => expect(await lockHolders()).not.toContain(holder), { timeoutMs: 5_000, intervalMs: 20 })
  }
  /** The worker has taken the lock again, on a new session (it notices the loss at one check, retakes at the next). */
  const retaken = () =>
    waitFor(
      async () => {
        const holders = await lockHolders()
        expect(holders).toHaveLength(1)
        expect(holders).not.toContain(terminated)
        expect(await isHeld()).toBe(true)
      },
      { timeoutMs: 15_000 }
    )
  const fencedTotal = () =>
    env.service.run(Metrics.use((m) => Effect.succeed(m.value("pipeline_publish_fenced_total"))))
  const LOST = /^publish: lost the worker lock: its PostgreSQL session \(pid \d+\) no longer holds/

  it("a run whose lock session is terminated before its publish fails with 'lost the worker lock' and publishes nothing", async () => {
    const versionBefore = await version()
    const rowsBefore = await query(env.service, PRICES)
    body = tsv(products(4, 0, "20.00 USD")) // a new feed: one more product, new prices
    const fetch = holdNextFetch()
    const run = runFeed(env.service, "shop")
    await fetch.fetching // the run has started (under the lock) and waits for its feed
    await terminateLockSession()
    fetch.release()

    const summary = await run
    expect(summary.status).toBe("failed")
    expect(summary.error).toMatch(LOST)
    expect(await version()).toBe(versionBefore)
    expect(await query(env.service, PRICES)).toEqual(rowsBefore)
    expect(await fencedTotal()).toBe(1)
  })

  it("a run that outlives its lock session is fenced even after the worker took the lock again on a new session", async () => {
    await retaken()
    const versionBefore = await version()
    const rowsBefore = await query(env.service, PRICES)
    const fetch = holdNextFetch()
    const run = runFeed(env.service, "shop")
    await fetch.fetching
    await terminateLockSession()
    await retaken() // another worker could have held the lock and published in between
    fetch.release()

    const summary = await run
    expect(summary.status).toBe("failed")
    expect(summary.error).toMatch(LOST)
    expect(await version()).toBe(versionBefore)
    expect(await query(env.service, PRICES)).toEqual(rowsBefore)
    expect(await fencedTotal()).toBe(2)
  }, 30_000)

  it("once the worker takes the lock again, on a new session, its runs publish again", async () => {
    await retaken()
    const versionBefore = await version()
    expect(await runFeed(env.service, "shop")).toMatchObject({ status: "succeeded", rowsLoaded: 4 })
    expect(BigInt(await version())).toBe(BigInt(versionBefore) + 1n)
    expect((await query(env.service, PRICES)).map((row) => row.price)).toEqual([
      "20.0000",
      "20.0000",
      "20.0000",
      "20.0000"
    ])
  }, 30_000)
})
