import { Effect, Exit, Layer, Redacted, Scope } from "effect"
import { AppConfig } from "../infra/AppConfig.ts"
import { makePgDatabase } from "../infra/PgDatabase.ts"
import { Metrics } from "../infra/Metrics.ts"
import { RateLimits } from "../partners/RateLimits.ts"
import { startEmbeddedPostgres } from "./support/embeddedPostgres.ts"
import { machineLoad } from "./support/machineLoad.ts"

// bench:rate-limits: what one rate-limit check costs per API request, with
// the buckets in this process's memory (DuckDB, one process: the baseline)
// and shared by every replica in PostgreSQL (one upsert per request, on a
// throwaway embedded PostgreSQL over loopback). Measured for one hot key
// (every request on the same bucket row: the row lock serialises them) and
// for many distinct IPs (a new row per request), sequentially (the latency a
// request pays) and with CONCURRENCY checks in flight (the throughput a
// replica gets from its pool).

const CHECKS = Number(process.env.BENCH_CHECKS ?? 4_000)
const CONCURRENCY = 16
const LIMIT = { perMinute: 1_000_000_000, burst: 1_000_000_000 } // never 429: every check does the full work

interface Figure {
  readonly label: string
  readonly perCheckUs: number
  readonly perSecond: number
  readonly load: string
}

const measure = async (label: string, check: (i: number) => Promise<unknown>, concurrency: number) => {
  const started = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < CHECKS) await check(next++)
    })
  )
  const ms = performance.now() - started
  return {
    label,
    perCheckUs: (ms * 1000) / CHECKS,
    perSecond: (CHECKS / ms) * 1000,
    load: machineLoad()
  } satisfies Figure
}

const limitsOn = (store: "memory" | "postgres", url: string, scope: Scope.Scope) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const shared = store === "postgres" ? yield* makePgDatabase({ url: Redacted.make(url), poolSize: 10 }) : undefined
      return yield* RateLimits.make(shared)
    }).pipe(
      Effect.provide(
        Layer.mergeAll(
          Metrics.layer,
          AppConfig.layerWith({ dataDir: "unused", rateLimitPerKey: LIMIT, rateLimitPerIp: LIMIT })
        )
      ),
      Scope.provide(scope)
    )
  )

const main = async () => {
  console.log(`bench:rate-limits: ${CHECKS} checks per figure; ${machineLoad()} at start`)
  const server = await startEmbeddedPostgres()
  const scope = Effect.runSync(Scope.make())
  try {
    const memory = await limitsOn("memory", server.url, scope)
    const postgres = await limitsOn("postgres", server.url, scope)
    const run = (limits: typeof memory, scope: "key" | "ip") => (i: number) =>
      Effect.runPromise(
        limits.take(scope, scope === "key" ? "key:1" : `ip:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)
      )
    for (const limits of [memory, postgres]) await measure("warm-up", run(limits, "key"), CONCURRENCY)
    const figures: Array<[Figure, Figure]> = []
    for (const [what, scope] of [
      ["one hot key", "key"],
      ["distinct IPs", "ip"]
    ] as const) {
      for (const concurrency of [1, CONCURRENCY]) {
        const base = await measure(`memory, ${what}, ${concurrency} in flight`, run(memory, scope), concurrency)
        const shared = await measure(`postgres, ${what}, ${concurrency} in flight`, run(postgres, scope), concurrency)
        figures.push([base, shared])
      }
    }
    for (const [base, shared] of figures) {
      for (const figure of [base, shared])
        console.log(
          `${figure.label.padEnd(40)} ${figure.perCheckUs.toFixed(1).padStart(9)} µs/check ${Math.round(figure.perSecond).toString().padStart(9)} checks/s  (${figure.load})`
        )
      console.log(
        `${"".padEnd(40)} postgres/memory: ${(shared.perCheckUs / base.perCheckUs).toFixed(0)}x the time per check`
      )
    }
    console.log(
      "Reading: the shared limit adds one loopback round trip to PostgreSQL to each limited API request " +
        "(the redirect /t/ is never limited); at the figures above it is a small part of a request that already reads " +
        "the store, and PostgreSQL's own CPU shares these cores, so a separate database host makes it cheaper."
    )
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await server.stop()
  }
}

await main()
