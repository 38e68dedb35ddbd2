import { type Duration, Effect, Exit, Option, Redacted, Scope } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import postgres from "postgres"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BUMP_CATALOG_VERSION_SQL, READ_CATALOG_VERSION_SQL } from "../../infra/CatalogVersion.ts"
import { lockConnection, WorkerLock } from "../../pipelines/WorkerLock.ts"
import { type EmbeddedPostgresServer, startEmbeddedPostgres } from "../support/embeddedPostgres.ts"
import { getJson, postJson } from "../support/http.ts"
import { startService } from "../support/TestService.ts"

// The PostgreSQL side of ROLE=worker/api, on a real PostgreSQL of its own
// (this file runs in the duckdb project, which has no shared server). One pipeline
// worker at a time: the first WorkerLock holds the advisory lock, a second
// waits and takes it once the first process's scope ends.
const ADMIN = { authorization: "Bearer test-admin-token" }
let server: EmbeddedPostgresServer
let sql: postgres.Sql
let url: string

beforeAll(async () => {
  server = await startEmbeddedPostgres()
  await server.started
  url = server.url
  sql = postgres(url, { max: 4 })
}, 60_000)

afterAll(async () => {
  await sql?.end({ timeout: 5 })
  await server?.stop()
})

/** A WorkerLock on its own reserved connection, in a scope standing for one worker process. */
const startWorker = async (every?: Duration.Input) => {
  const scope = Effect.runSync(Scope.make())
  const lock = await Effect.runPromise(
    Effect.flatMap(lockConnection(url), (connection) => WorkerLock.make(connection, every)).pipe(Scope.provide(scope))
  )
  return { lock, stop: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

describe("WorkerLock on PostgreSQL", () => {
  it("lets one worker hold the pipeline lock; a second waits and takes it when the first stops", async () => {
    const first = await startWorker()
    await Effect.runPromise(first.lock.awaitHeld.pipe(Effect.timeout("5 seconds")))
    expect(first.lock.isHeld()).toBe(true)

    const second = await startWorker()
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(second.lock.isHeld()).toBe(false) // still waiting: feeds must not run twice

    await first.stop()
    await Effect.runPromise(second.lock.awaitHeld.pipe(Effect.timeout("10 seconds")))
    expect(second.lock.isHeld()).toBe(true)
    const holders = await sql<
      Array<{ n: number }>
    >`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted`
    expect(holders[0]!.n).toBe(1)
    await second.stop()
  }, 30_000)
})

const lockHolders = () => sql<Array<{ pid: number }>>`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted`
const waitUntil = async (condition: () => boolean, ms: number) => {
  const started = performance.now()
  while (!condition() && performance.now() - started < ms) await new Promise((resolve) => setTimeout(resolve, 20))
  return condition()
}

describe("WorkerLock when PostgreSQL drops the holder's session", () => {
  it("the holder notices within its check interval, starts nothing, and takes the lock again when it is free", async () => {
    const worker = await startWorker("200 millis")
    try {
      await Effect.runPromise(worker.lock.awaitHeld.pipe(Effect.timeout("5 seconds")))
      const [holder] = await lockHolders()
      await sql`SELECT pg_terminate_backend(${holder!.pid})`
      expect(await waitUntil(() => !worker.lock.isHeld(), 2_000)).toBe(true) // lost: no new runs
      expect(await waitUntil(() => worker.lock.isHeld(), 5_000)).toBe(true) // free again: retaken
      const holders = await lockHolders()
      expect(holders).toHaveLength(1)
      expect(holders[0]!.pid).not.toBe(holder!.pid) // on a new session
    } finally {
      await worker.stop()
    }
  }, 30_000)

  it("with a second worker waiting, exactly one of them holds the lock afterwards", async () => {
    const first = await startWorker("200 millis")
    const second = await startWorker("200 millis")
    try {
      await Effect.runPromise(first.lock.awaitHeld.pipe(Effect.timeout("5 seconds")))
      expect(second.lock.isHeld()).toBe(false)
      const [holder] = await lockHolders()
      await sql`SELECT pg_terminate_backend(${holder!.pid})`
      expect(await waitUntil(() => !first.lock.isHeld() || second.lock.isHeld(), 2_000)).toBe(true)
      // Give both the time to settle (each tries every 200 ms), then one holder only, in each's own view and PostgreSQL's.
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      expect([first.lock.isHeld(), second.lock.isHeld()].filter(Boolean)).toHaveLength(1)
      expect(await lockHolders()).toHaveLength(1)
    } finally {
      await first.stop()
      await second.stop()
    }
  }, 30_000)
})

// The PostgreSQL side of the catalog version: the migration file and the very
// statements the DuckDB path runs (infra/CatalogVersion.ts).
describe("catalog_version on PostgreSQL", () => {
  it("the 0002 migration creates one row at version 0, twice without harm; the bump and the read work as on DuckDB", async () => {
    const migration = readFileSync(
      new URL("../../infra/postgres/migrations/0002_catalog_version.sql", import.meta.url),
      "utf8"
    )
    await sql.unsafe(migration)
    await sql.unsafe(migration)
    const read = async () => (await sql.unsafe<Array<{ version: string }>>(READ_CATALOG_VERSION_SQL))[0]?.version
    expect(await read()).toBe("0")
    await sql.begin(async (tx) => {
      await tx.unsafe(BUMP_CATALOG_VERSION_SQL)
      await tx.unsafe(BUMP_CATALOG_VERSION_SQL)
    })
    expect(await read()).toBe("2")
    expect((await sql`SELECT count(*)::int AS n FROM catalog_version`)[0]!.n).toBe(1)
  })
})

describe("ROLE=worker waiting for the pipeline lock, over HTTP", () => {
  it("answers /health, says not ready and refuses ingest with 409 while another worker holds the lock; starts when it is freed", async () => {
    const other = await startWorker() // another worker process holds the lock
    await Effect.runPromise(other.lock.awaitHeld.pipe(Effect.timeout("5 seconds")))
    const worker = await startService({ role: "worker", databaseUrl: Option.some(Redacted.make(url)) })
    try {
      expect((await getJson(`${worker.url}/health`)).status).toBe(200)
      expect((await getJson(`${worker.url}/ready`)).status).toBe(503)
      const refused = await postJson(`${worker.url}/admin/ingest`, {}, ADMIN)
      expect(refused.status).toBe(409)
      expect(refused.body.error.code).toBe("pipeline_lock_waiting")

      await other.stop()
      // The worker retries the lock every few seconds: wait for it to say ready (the test's timeout bounds the wait).
      while ((await getJson(`${worker.url}/ready`)).status !== 200) await new Promise((r) => setTimeout(r, 100))
      // One small feed, run to its end: nothing is left running for close() to interrupt (a full ingest
      // started without waiting kept close() busy for 9 s under load, and the test past its timeout).
      const ingest = await postJson(`${worker.url}/admin/ingest`, { feed: "networks" }, ADMIN)
      expect(ingest.status).toBe(200)
      expect(ingest.body.runs).toMatchObject([{ feed: "networks", status: "succeeded" }])
    } finally {
      await worker.close()
    }
  }, 40_000)
})
