import { Effect, Exit, Layer, Redacted, Scope } from "effect"
import { AppConfig } from "../infra/AppConfig.ts"
import { makePgDatabase } from "../infra/PgDatabase.ts"
import { Metrics } from "../infra/Metrics.ts"
import { RateLimits } from "../partners/RateLimits.ts"
import { startEmbeddedPostgres } from "./support/embeddedPostgres.ts"
import { machineLoad } from "./support/machineLoad.ts"

// bench:rate-limits: what one rate-limit check costs per API request, with
// the buckets in this process's memory (DuckDB, one process: the baseline)
// and shared by every replica in PostgreSQL (a throwaway embedded PostgreSQL
// over loopback): per key and per IP answered from the replica's memory and
// synced every RATE_LIMIT_SYNC_MS (100 ms; the syncs run during the figure),
// registrations one upsert per request. Measured for one hot key (for the
// upsert: every request on the same bucket row, which its lock serialises)
// and for many distinct IPs (a new bucket per request), sequentially (the
// latency a request pays) and with CONCURRENCY checks in flight (the
// throughput a replica gets from its pool). Checks answered from memory run
// SYNCED_FACTOR times as many, so that a figure spans several syncs.

const CHECKS = Number(process.env.BENCH_CHECKS ?? 4_000)
const SYNCED_FACTOR = 100
const CONCURRENCY = 16
const LIMIT = { perMinute: 1_000_000_000, burst: 1_000_000_000 } // never 429: every check does the full work

interface Figure {
  readonly label: string
  readonly perCheckUs: number
  readonly perSecond: number
  readonly load: string
}

const measure = async (label: string, check: (i: number) => Promise<unknown>, concurrency: number, checks = CHECKS) => {
  const started = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < checks) await check(next++)
    })
  )
  const ms = performance.now() - started
  return {
    label,
    perCheckUs: (ms * 1000) / checks,
    perSecond: (checks / ms) * 1000,
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
          AppConfig.layerWith({
            dataDir: "unused",
            rateLimitPerKey: LIMIT,
            rateLimitPerIp: LIMIT,
            rateLimitRegister: LIMIT
          })
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
    const bucket = (distinct: boolean, i: number) =>
      distinct ? `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` : "1"
    const run = (limits: typeof memory, scope: "key" | "ip" | "register", distinct: boolean) => (i: number) =>
      Effect.runPromise(limits.take(scope, `${scope}:${bucket(distinct, i)}`))
    for (const limits of [memory, postgres]) await measure("warm-up", run(limits, "key", false), CONCURRENCY)
    const figures: Array<[Figure, Figure, Figure]> = []
    for (const [what, scope, distinct] of [
      ["one hot key", "key", false],
      ["distinct IPs", "ip", true]
    ] as const) {
      for (const concurrency of [1, CONCURRENCY]) {
        const checks = CHECKS * SYNCED_FACTOR
        const base = await measure(
          `memory, ${what}, ${concurrency} in flight`,
          run(memory, scope, distinct),
          concurrency,
          checks
        )
        const synced = await measure(
          `replicas, ${what}, ${concurrency} in flight`,
          run(postgres, scope, distinct),
          concurrency,
          checks
        )
        const upsert = await measure(
          `upsert per check (registrations), ${what}, ${concurrency} in flight`,
          run(postgres, "register", distinct),
          concurrency
        )
        figures.push([base, synced, upsert])
      }
    }
    const line = (figure: Figure, ratio = "") =>
      console.log(
        `${figure.label.padEnd(64)} ${figure.perCheckUs.toFixed(1).padStart(7)} µs/check ${Math.round(figure.perSecond).toString().padStart(8)} checks/s ${ratio.padStart(7)}  (${figure.load})`
      )
    const over = (figure: Figure, base: Figure) => `${(figure.perCheckUs / base.perCheckUs).toFixed(1)}x`
    for (const [base, synced, upsert] of figures) {
      line(base, "(base)")
      line(synced, over(synced, base))
      line(upsert, over(upsert, base))
    }
    console.log(
      "Reading: on replicas, per-key and per-IP checks are answered from memory and cost PostgreSQL one statement " +
        "per sync (100 ms) whatever the request rate; a registration takes its token with one loopback round trip " +
        "to PostgreSQL (the redirect /t/ is never limited), and PostgreSQL's own CPU shares these cores."
    )
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await server.stop()
  }
}

await main()
