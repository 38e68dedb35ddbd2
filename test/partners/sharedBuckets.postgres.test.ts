import { Effect, Exit, Redacted, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Database } from "../../infra/Database.ts"
import { makePgDatabase } from "../../infra/PgDatabase.ts"
import type { RateLimit } from "../../partners/RateLimiter.ts"
import { pruneSharedBuckets, spendShared, takeShared } from "../../partners/SharedBuckets.ts"
import { freshDatabaseUrl } from "../support/postgres.ts"

// The shared token buckets' statement on its own, against a real PostgreSQL:
// two pools on one database stand for two API replicas. Elapsed time is
// simulated by moving a bucket's `at` (and `full_at`) back, as the refill reads
// the database's clock, which a test cannot advance.
describe("shared rate-limit buckets (PostgreSQL)", () => {
  const scope = Effect.runSync(Scope.make())
  let replicaA: Database["Service"]
  let replicaB: Database["Service"]
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))
  beforeAll(async () => {
    const url = Redacted.make(await freshDatabaseUrl())
    const open = () => Effect.runPromise(makePgDatabase({ url, poolSize: 8 }).pipe(Scope.provide(scope)))
    replicaA = await open()
    replicaB = await open()
  })

  const take = (db: Database["Service"], limit: RateLimit, key: string) => Effect.runPromise(takeShared(db, limit, key))
  const allowedCount = (verdicts: ReadonlyArray<{ readonly allowed: boolean }>) =>
    verdicts.filter((verdict) => verdict.allowed).length
  /** Pretends `seconds` passed since the bucket was last used. */
  const age = (key: string, seconds: number) =>
    Effect.runPromise(
      replicaA.run(
        "UPDATE rate_limit_buckets SET at = at - make_interval(secs => $2), full_at = full_at - make_interval(secs => $2) WHERE key = $1",
        [key, seconds]
      )
    )
  const prune = () => Effect.runPromise(pruneSharedBuckets(replicaA))

  it("grants exactly the burst to concurrent first requests from two replicas, whatever their order", async () => {
    // No refill: on a loaded machine the 24 statements may take over a
    // second, and a token's worth of time back would change Retry-After.
    const limit = { perMinute: 0, burst: 4 }
    const verdicts = await Promise.all(
      Array.from({ length: 24 }, (_, i) => take(i % 2 === 0 ? replicaA : replicaB, limit, "ip:192.0.2.1"))
    )
    expect(allowedCount(verdicts)).toBe(4)
    for (const verdict of verdicts) if (!verdict.allowed) expect(verdict.retryAfterSeconds).toBe(60)
  })

  it("a request applied after a later-started one still finds the whole token (a bucket's time never runs backwards)", async () => {
    // Concurrent statements queue on the bucket's row lock; `now()` is each
    // one's start. Here the transaction on A starts first (its now() is
    // pinned), B takes a token meanwhile, then A takes the last token.
    const limit = { perMinute: 1, burst: 2 }
    const key = "ip:late-applied"
    const verdicts = await Effect.runPromise(
      replicaA.transaction((tx) =>
        Effect.gen(function* () {
          yield* tx.query("SELECT now()")
          yield* Effect.sleep("50 millis")
          const onB = yield* takeShared(replicaB, limit, key)
          const onA = yield* takeShared(tx, limit, key)
          return [onB, onA]
        })
      )
    )
    expect(verdicts).toEqual([{ allowed: true }, { allowed: true }])
    expect(await take(replicaB, limit, key)).toEqual({ allowed: false, retryAfterSeconds: 60 })
  })

  it("refuses once the burst is spent and refills at perMinute/60 per second of the database's clock", async () => {
    const limit = { perMinute: 6, burst: 2 } // one token every 10 s
    const key = "key:refill"
    expect(allowedCount([await take(replicaA, limit, key), await take(replicaB, limit, key)])).toBe(2)
    expect(await take(replicaA, limit, key)).toEqual({ allowed: false, retryAfterSeconds: 10 })
    await age(key, 5)
    expect(await take(replicaB, limit, key)).toEqual({ allowed: false, retryAfterSeconds: 5 })
    await age(key, 5)
    expect(await take(replicaB, limit, key)).toEqual({ allowed: true })
    expect((await take(replicaA, limit, key)).allowed).toBe(false)
    // a long idle refills up to the burst, not beyond
    await age(key, 3600)
    const afterIdle = [
      await take(replicaA, limit, key),
      await take(replicaB, limit, key),
      await take(replicaA, limit, key)
    ]
    expect(afterIdle.map((verdict) => verdict.allowed)).toEqual([true, true, false])
  })

  it("pruning forgets full buckets only: a drained bucket stays drained", async () => {
    const limit = { perMinute: 6, burst: 1 }
    await take(replicaA, limit, "ip:drained")
    await take(replicaA, limit, "ip:full")
    await age("ip:full", 10) // full again: its row carries nothing
    await prune()
    const keys = await Effect.runPromise(
      replicaA.query<{ key: string }>(
        "SELECT key FROM rate_limit_buckets WHERE key LIKE 'ip:%full' OR key = 'ip:drained'"
      )
    )
    expect(keys.map((row) => row.key)).toEqual(["ip:drained"])
    expect((await take(replicaB, limit, "ip:drained")).allowed).toBe(false)
    expect((await take(replicaB, limit, "ip:full")).allowed).toBe(true)
  })

  it("a limit with no refill (perMinute 0) is not forgiven by pruning", async () => {
    // In memory (RateLimiter.ts) such a bucket never refills; the shared one must not either.
    const limit = { perMinute: 0, burst: 1 }
    expect(await take(replicaA, limit, "register:no-refill")).toEqual({ allowed: true })
    expect(await take(replicaB, limit, "register:no-refill")).toEqual({ allowed: false, retryAfterSeconds: 60 })
    await prune()
    expect(await take(replicaA, limit, "register:no-refill")).toEqual({ allowed: false, retryAfterSeconds: 60 })
  })

  const spend = (db: Database["Service"], limit: RateLimit, granted: Record<string, number>) =>
    Effect.runPromise(spendShared(db, limit, new Map(Object.entries(granted)))).then((levels) =>
      Object.fromEntries(levels.map(({ key, tokens }) => [key, tokens]))
    )

  it("charges what replicas granted from memory, below zero as a debt repaid by refill", async () => {
    const limit = { perMinute: 6, burst: 4 } // one token every 10 s
    const levels = await spend(replicaA, limit, { "ip:spent-1": 3, "ip:spent-2": 1 })
    expect(levels["ip:spent-1"]).toBeCloseTo(1, 0)
    expect(levels["ip:spent-2"]).toBeCloseTo(3, 0)
    // B granted 3 more from its own view before it knew of A's: the bucket owes 2
    expect((await spend(replicaB, limit, { "ip:spent-1": 3 }))["ip:spent-1"]).toBeCloseTo(-2, 0)
    // 3 tokens to refill before one is whole: 30 s, less the time since (the statements' own clock)
    const owed = await take(replicaA, limit, "ip:spent-1")
    expect(owed.allowed).toBe(false)
    if (!owed.allowed) expect(owed.retryAfterSeconds).toBeGreaterThanOrEqual(28)
    await age("ip:spent-1", 30)
    expect(await take(replicaB, limit, "ip:spent-1")).toEqual({ allowed: true })
    // pruning keeps a bucket in debt: it is not full
    await prune()
    expect((await take(replicaA, limit, "ip:spent-1")).allowed).toBe(false)
  })

  it("two replicas charging overlapping buckets at once lose nothing and do not deadlock", async () => {
    // No refill, so the totals are exact. Each sync lists the keys in another
    // order; the statement writes them in key order.
    const limit = { perMinute: 0, burst: 100 }
    const keys = Array.from({ length: 20 }, (_, i) => `ip:overlap-${i}`)
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const order = i % 2 === 0 ? keys : [...keys].reverse()
        return spend(i % 2 === 0 ? replicaA : replicaB, limit, Object.fromEntries(order.map((key) => [key, 1])))
      })
    )
    const last = await spend(replicaA, limit, Object.fromEntries(keys.map((key) => [key, 0])))
    expect(new Set(Object.values(last))).toEqual(new Set([70]))
  })
})
