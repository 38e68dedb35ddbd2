import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AppConfig, type AppConfigShape } from "../../infra/AppConfig.ts"
import { Database } from "../../infra/Database.ts"
import { Metrics } from "../../infra/Metrics.ts"
import { makePgDatabase } from "../../infra/PgDatabase.ts"
import { RateLimits } from "../../partners/RateLimits.ts"
import { freshDatabaseUrl } from "../support/postgres.ts"

// The replicas' layer of the rate limits on a real PostgreSQL, two instances
// on two pools of one database standing for two API replicas: per-key and
// per-IP buckets answered from each replica's memory and synced every
// RATE_LIMIT_SYNC_MS (partners/SyncedBuckets.ts), registrations one statement
// each. One token back an hour: no refill to speak of during a test.
const limit = { perMinute: 1, burst: 4 }
const SYNCS = "api_rate_limit_syncs_total"

describe("rate limits on replicas (PostgreSQL)", () => {
  const scope = Effect.runSync(Scope.make())
  let url: Redacted.Redacted<string>
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))
  beforeAll(async () => {
    url = Redacted.make(await freshDatabaseUrl())
  })

  /** `poolScope`: where the replica's connections live, apart from the layer to cut them under it. */
  const replica = async (overrides: Partial<AppConfigShape> = {}, within = scope, poolScope = within) => {
    const db = await Effect.runPromise(makePgDatabase({ url, poolSize: 4 }).pipe(Scope.provide(poolScope)))
    const layer = Layer.merge(RateLimits.layerReplicas, Metrics.layer).pipe(
      Layer.provideMerge(Metrics.layer),
      Layer.provide(
        Layer.mergeAll(
          Layer.succeed(Database, db),
          AppConfig.layerWith({
            dataDir: "unused",
            rateLimitPerIp: limit,
            rateLimitRegister: { perMinute: 1, burst: 2 },
            rateLimitSyncMs: 20,
            ...overrides
          })
        )
      )
    )
    const context = await Effect.runPromise(Layer.buildWithScope(layer, within))
    const limits = Context.get(context, RateLimits)
    const metrics = Context.get(context, Metrics)
    return {
      db,
      metrics,
      take: (bucket: string) => Effect.runPromise(limits.take("ip", bucket)),
      register: (bucket: string) => Effect.runPromise(limits.take("register", bucket)),
      /** Resolves once a sync that started after this call has finished. */
      synced: async () => {
        const before = metrics.value(SYNCS)
        while (metrics.value(SYNCS) < before + 2) await new Promise((resolve) => setTimeout(resolve, 5))
      }
    }
  }
  const sharedLevel = async (db: Database["Service"], key: string) =>
    (
      await Effect.runPromise(
        db.query<{ tokens: number }>("SELECT tokens FROM rate_limit_buckets WHERE key = $1", [key])
      )
    )[0]?.tokens

  it("each replica answers from memory and learns a bucket's shared level when it syncs its grants", async () => {
    const [a, b] = [await replica(), await replica()]
    for (let i = 0; i < 4; i++) expect(await a.take("ip:one")).toEqual({ allowed: true })
    expect((await a.take("ip:one")).allowed).toBe(false)
    await a.synced()
    expect(await sharedLevel(a.db, "ip:one")).toBeCloseTo(0, 0)
    // B has not granted to this client yet: its view is the whole burst (the trade)
    expect(await b.take("ip:one")).toEqual({ allowed: true })
    await b.synced()
    // ... and once its grant is charged it reads the debt back: 2 tokens to refill at one a minute
    expect(await sharedLevel(a.db, "ip:one")).toBeCloseTo(-1, 0)
    const refused = await b.take("ip:one")
    expect(refused.allowed).toBe(false)
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThan(115)
    expect((await a.take("ip:one")).allowed).toBe(false)
    // other clients keep their own buckets
    expect(await b.take("ip:other")).toEqual({ allowed: true })
  })

  it("what replicas granted past the burst between two syncs is owed in full", async () => {
    const [a, b] = [await replica(), await replica()]
    // neither knows the client: each grants its whole view, 8 in all against a burst of 4
    for (const side of [a, b]) for (let i = 0; i < 4; i++) expect((await side.take("ip:spread")).allowed).toBe(true)
    await Promise.all([a.synced(), b.synced()])
    expect(await sharedLevel(a.db, "ip:spread")).toBeCloseTo(-4, 0)
    for (const side of [a, b]) expect((await side.take("ip:spread")).allowed).toBe(false)
  })

  it("registrations take their token from the shared bucket each, exact without waiting for a sync", async () => {
    const [a, b] = [await replica(), await replica()]
    expect([await a.register("register:x"), await b.register("register:x")]).toEqual([
      { allowed: true },
      { allowed: true }
    ])
    expect((await a.register("register:x")).allowed).toBe(false)
    expect((await b.register("register:x")).allowed).toBe(false)
  })

  it("a replica that stops hands over what it granted since its last sync", async () => {
    const own = Effect.runSync(Scope.make())
    const a = await replica({ rateLimitSyncMs: 10_000 }, own)
    const watcher = await replica()
    for (let i = 0; i < 3; i++) await a.take("ip:stopping")
    const seen = await sharedLevel(watcher.db, "ip:stopping")
    await Effect.runPromise(Scope.close(own, Exit.void))
    expect(seen).toBeUndefined()
    expect(await sharedLevel(watcher.db, "ip:stopping")).toBeCloseTo(1, 0)
  })

  it("while the database fails, each replica limits on its own and counts what it could not share", async () => {
    const pool = Effect.runSync(Scope.make())
    const a = await replica({}, scope, pool)
    await Effect.runPromise(Scope.close(pool, Exit.void))
    const verdicts = []
    for (let i = 0; i < 6; i++) verdicts.push((await a.take("ip:cut-off")).allowed)
    expect(verdicts).toEqual([true, true, true, true, false, false])
    await a.synced()
    expect(a.metrics.value("api_rate_limit_fallbacks_total")).toBe(4)
  })
})
