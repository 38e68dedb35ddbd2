import { Cause, Effect, Exit, Fiber, Redacted, Scope } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import type { DatabaseShape } from "../../infra/Database.ts"
import { makePgDatabase } from "../../infra/PgDatabase.ts"
import { connectPostgres } from "../../infra/postgres/client.ts"
import { type RelayDelays, relayDelayingCancels } from "../support/cancelDelayingRelay.ts"
import { freshDatabaseUrl } from "../support/postgres.ts"
import { waitFor } from "../support/waitFor.ts"

// An interrupted read on PostgreSQL is cancelled server-side (a CancelRequest
// on a connection of its own, naming the backend, not the statement). Most of
// these run on a pool of ONE connection, so the statement after an
// interrupted read always runs on the backend that read's cancel names.

const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.runPromise(effect)

// Long enough that a test failing by a hung pool fails here, not by vitest's timeout.
const PATIENCE = "10 seconds"

describe("interrupted reads on PostgreSQL", () => {
  const scope = Effect.runSync(Scope.make())
  const cleanups: Array<() => Promise<void>> = []
  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    for (const cleanup of cleanups) await cleanup()
  })

  const openPool = (url: string): Promise<DatabaseShape> =>
    Effect.runPromise(makePgDatabase({ url: Redacted.make(url), poolSize: 1 }).pipe(Scope.provide(scope)))

  const behindRelay = async (delays: RelayDelays, poolSize = 1) => {
    const relay = await relayDelayingCancels(await freshDatabaseUrl(), delays)
    cleanups.push(relay.close)
    const db = await Effect.runPromise(
      makePgDatabase({ url: Redacted.make(relay.url), poolSize }).pipe(Scope.provide(scope))
    )
    return { relay, db }
  }

  it("a cancel that arrives after its read finished does not cancel the next read on that connection", async () => {
    // The cancel reaches PostgreSQL 400 ms after the interruption (at 50 ms);
    // the read it was sent for is done at 200 ms, and the next read runs for
    // 500 ms: a cancel that lands on whatever the backend runs kills that one.
    const { relay, db } = await behindRelay({ cancelMs: 400 })
    const rounds = 5
    const failures: Array<string> = []
    for (let round = 0; round < rounds; round++) {
      const next = await run(
        Effect.gen(function* () {
          const read = yield* Effect.forkChild(db.query("SELECT pg_sleep(0.2)"))
          yield* Effect.sleep("50 millis")
          yield* Fiber.interrupt(read)
          return yield* Effect.exit(db.query("SELECT pg_sleep(0.5)").pipe(Effect.timeout(PATIENCE)))
        })
      )
      if (Exit.isFailure(next)) failures.push(Cause.pretty(next.cause))
    }
    expect(failures).toEqual([])
    // Every interrupted read was still running, so each one sent its cancel.
    expect(relay.cancelRequestsDelivered()).toBe(rounds)
  })

  it("an interrupted long read is cancelled on the server, so its connection serves the next read at once", async () => {
    const { relay, db } = await behindRelay({ cancelMs: 0 })
    const rows = await run(
      Effect.gen(function* () {
        const read = yield* Effect.forkChild(db.query("SELECT pg_sleep(60)"))
        yield* Effect.sleep("100 millis")
        yield* Fiber.interrupt(read)
        return yield* db.query("SELECT 1 AS n").pipe(Effect.timeout(PATIENCE))
      })
    )
    expect(rows).toEqual([{ n: 1 }])
    expect(relay.cancelRequestsDelivered()).toBe(1)
  })

  it("a read interrupted at any point on its way to the server leaves the connection usable", async () => {
    const db = await openPool(await freshDatabaseUrl())
    // 0 to 5 scheduler turns between start and interruption: waiting for the
    // connection, built but not yet written, written.
    for (let round = 0; round < 30; round++) {
      await run(
        Effect.gen(function* () {
          const read = yield* Effect.forkChild(db.query("SELECT 1"))
          for (let turn = 0; turn < round % 6; turn++) yield* Effect.yieldNow
          yield* Fiber.interrupt(read)
        })
      )
    }
    const rows = await run(db.query("SELECT 2 AS n").pipe(Effect.timeout(PATIENCE)))
    expect(rows).toEqual([{ n: 2 }])
  })

  it("a long read interrupted while its connection is still opening is cancelled once it is sent", async () => {
    // Two connections, each taking 300 ms to reach PostgreSQL: the first,
    // opened by the migrations, is busy, so the long read goes to the second,
    // and is interrupted while that one is still opening.
    const { relay, db } = await behindRelay({ cancelMs: 0, connectMs: 300 }, 2)
    await run(
      Effect.gen(function* () {
        const holder = yield* Effect.forkChild(db.query("SELECT pg_sleep(60)"))
        yield* Effect.sleep("100 millis")
        const opening = yield* Effect.forkChild(db.query("SELECT pg_sleep(60)"))
        yield* Effect.sleep("100 millis")
        yield* Fiber.interrupt(opening)
        yield* Fiber.interrupt(holder)
      })
    )
    // Both cancels go out (the second once its connection is open), and both
    // connections then serve at the same time: two reads, two sessions.
    await waitFor(() => expect(relay.cancelRequestsDelivered()).toBe(2))
    await new Promise((resolve) => setTimeout(resolve, 200))
    const session = "SELECT pg_backend_pid() AS pid FROM pg_sleep(0.3)"
    const [first, second] = await run(
      Effect.all([db.query(session), db.query(session)], { concurrency: 2 }).pipe(Effect.timeout(PATIENCE))
    )
    expect(first[0].pid).not.toBe(second[0].pid)
  })

  it("a read interrupted while it waits for a connection does not keep that connection when it comes", async () => {
    const db = await openPool(await freshDatabaseUrl())
    const rows = await run(
      Effect.gen(function* () {
        const holder = yield* Effect.forkChild(db.query("SELECT pg_sleep(60)"))
        yield* Effect.sleep("100 millis")
        const waiter = yield* Effect.forkChild(db.query("SELECT 1"))
        yield* Effect.sleep("50 millis")
        yield* Fiber.interrupt(waiter)
        yield* Fiber.interrupt(holder)
        return yield* db.query("SELECT 3 AS n").pipe(Effect.timeout(PATIENCE))
      })
    )
    expect(rows).toEqual([{ n: 3 }])
  })

  const terminateBackendRunning = async (url: string, statement: string) => {
    const admin = connectPostgres(url, 1)
    try {
      for (let attempt = 0; attempt < 200; attempt++) {
        const ended = await admin.unsafe(
          "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()",
          [statement]
        )
        if (ended.length > 0) return
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      throw new Error(`no backend ever ran ${statement}`)
    } finally {
      await admin.end()
    }
  }

  // postgres.js hands a killed session's FATAL error (57P01) to the first
  // statement of the connection it reopens in its place, so the first
  // statement after a kill may fail with it; the one after must answer.
  const answersAfterAKill = (db: DatabaseShape, n: number) =>
    run(db.query(`SELECT ${n} AS n`).pipe(Effect.retry({ times: 1 }), Effect.timeout(PATIENCE)))

  it("a read whose connection is killed fails as a storage error, and the store goes on with a new connection", async () => {
    const url = await freshDatabaseUrl()
    const db = await openPool(url)
    const statement = "SELECT pg_sleep(60) AS killed_read"
    const read = run(Effect.exit(db.query(statement)))
    await terminateBackendRunning(url, statement)
    const exit = await read
    expect(Exit.isFailure(exit) && Cause.pretty(exit.cause)).toMatch(/DatabaseError/)
    expect(await answersAfterAKill(db, 4)).toEqual([{ n: 4 }])
  })

  it("a transaction whose connection is killed fails, and the store goes on with a new connection", async () => {
    const url = await freshDatabaseUrl()
    const db = await openPool(url)
    const statement = "SELECT pg_sleep(60) AS killed_transaction"
    const transaction = run(Effect.exit(db.transaction((tx) => tx.query(statement))))
    await terminateBackendRunning(url, statement)
    expect(Exit.isFailure(await transaction)).toBe(true)
    expect(await answersAfterAKill(db, 5)).toEqual([{ n: 5 }])
    const written = await run(db.transaction((tx) => tx.query("SELECT 6 AS n")).pipe(Effect.timeout(PATIENCE)))
    expect(written).toEqual([{ n: 6 }])
  })
})
