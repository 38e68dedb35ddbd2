// npm run bench:clicks-pg
// Clicks into PostgreSQL against the DuckDB baseline, in one run:
// - the same redirect load (BENCH_SECONDS, default 5; BENCH_CONNECTIONS, 50)
//   on a service on DuckDB and one on PostgreSQL: req/s, p99, clicks stored
//   vs answered (every answered click must be stored), the click writer's
//   time per stored click (click_flush_seconds_total / clicks_written_total)
//   and the event loop's CPU per request (on PostgreSQL it also reads, judges
//   and COPY-encodes the journal, which DuckDB's read_json does on its threads);
// - how a journal batch goes into PostgreSQL: COPY straight into the
//   partitioned `clicks` vs COPY into a TEMP table then one INSERT ... SELECT
//   (BENCH_BATCH rows, default 5,000; median of 5 rounds each).
// PostgreSQL: BENCH_DATABASE_URL (an empty database you own), or an embedded
// PostgreSQL 18 started here (the test harness's: fsync=off, so the figures
// leave out the disk flush a real server pays at COMMIT).
import { Effect, Option, Redacted } from "effect"
import { loadavg } from "node:os"
import { ClickRecorder } from "../clicks/ClickRecorder.ts"
import { Database, type Tx } from "../infra/Database.ts"
import { connectPostgres } from "../infra/postgres/client.ts"
import { startEmbeddedPostgres } from "../test/support/embeddedPostgres.ts"
import { startBenchService } from "./support/benchService.ts"
import { HEADERS, median, paths, seedLinks, startBenchMeili } from "./support/redirectFixture.ts"
import { runLoad } from "./support/runLoad.ts"

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const BATCH = Number(process.env.BENCH_BATCH ?? 5_000)
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")

console.log(`machine load average: ${load()}`)
const external = process.env.BENCH_DATABASE_URL || undefined
const embedded = external === undefined ? await startEmbeddedPostgres() : undefined
await embedded?.started
const databaseUrl = await (async () => {
  if (embedded === undefined) return external!
  const admin = connectPostgres(embedded.url, 1)
  await admin.unsafe("CREATE DATABASE bench_clicks")
  await admin.end()
  return embedded.url.replace(/\/postgres$/, "/bench_clicks")
})()
const meili = await startBenchMeili("bench-clicks-pg-meili")
const meiliConfig = { meiliUrl: Option.some(meili.url), meiliMasterKey: Option.some(Redacted.make(meili.key)) }

const metric = (text: string, name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, "m").exec(text)?.[1] ?? NaN)

const redirectLoad = async (label: string, overrides: Parameters<typeof startBenchService>[1]) => {
  const service = await startBenchService(`clicks-${label}`, { ...meiliConfig, ...overrides })
  try {
    await service.run(seedLinks)
    await runLoad({ url: service.url, paths, connections: CONNECTIONS, seconds: 2, headers: HEADERS })
    const loopBefore = process.threadCpuUsage()
    const result = await runLoad({
      url: service.url,
      paths,
      connections: CONNECTIONS,
      seconds: SECONDS,
      headers: HEADERS
    })
    const stored = await service.run(
      Effect.gen(function* () {
        yield* (yield* ClickRecorder).flush
        return (yield* (yield* Database).query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM clicks"))[0].n
      })
    )
    const loop = process.threadCpuUsage(loopBefore)
    const metrics = await (
      await fetch(`${service.url}/metrics`, { headers: { authorization: "Bearer test-admin-token" } })
    ).text()
    const writeUs = (metric(metrics, "click_flush_seconds_total") * 1e6) / metric(metrics, "clicks_written_total")
    const answered = metric(metrics, "clicks_received_total")
    // This thread only: redirects, and on PostgreSQL reading, judging and COPY-encoding the journal.
    const loopUs = (loop.user + loop.system) / Math.max(1, result.total)
    console.log(
      `${label.padEnd(10)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p99 ${String(result.p99).padStart(4)} ms` +
        `  clicks answered ${answered}, stored ${stored} (${stored === answered ? "PASS" : "FAIL"})` +
        `  writer ${writeUs.toFixed(1)} µs/click  event loop ${loopUs.toFixed(1)} µs/req  (load ${load()})`
    )
    return { rps: result.requestsPerSecond, p99: result.p99, writeUs, loopUs }
  } finally {
    await service.close()
    service.remove()
  }
}

// One synthetic journal batch, appended as the PostgreSQL journal store does.
const fill = (batch: number, round: number) => (appender: Parameters<Parameters<Tx["append"]>[1]>[0]) => {
  const at = Date.now()
  for (let i = 0; i < batch; i++) {
    appender.appendVarchar(new Date(at + i).toISOString())
    appender.appendVarchar(`bench${String(i % 1000).padStart(7, "0")}`)
    appender.appendNull()
    appender.appendVarchar("bench")
    appender.appendVarchar(`h${round}-${i}`)
    appender.appendVarchar(HEADERS["user-agent"])
    appender.appendNull()
    appender.appendBoolean(false)
    appender.appendNull()
    appender.appendBoolean(true)
    appender.endRow()
  }
}

const copyPaths = async () => {
  const service = await startBenchService("clicks-copy", {
    ...meiliConfig,
    databaseUrl: Option.some(Redacted.make(databaseUrl))
  })
  try {
    const time = (f: (tx: Tx, round: number) => Effect.Effect<void, unknown>) =>
      service.run(
        Effect.gen(function* () {
          const db = yield* Database
          const runs: Array<number> = []
          for (let round = 0; round < 5; round++) {
            const started = performance.now()
            yield* db.transaction((tx) => f(tx, round))
            runs.push(performance.now() - started)
          }
          return median(runs)
        })
      )
    const direct = await time((tx, round) => tx.append("clicks", fill(BATCH, round)))
    const staged = await time((tx, round) =>
      Effect.gen(function* () {
        yield* tx.run("CREATE TEMP TABLE clicks_batch (LIKE clicks) ON COMMIT DROP")
        yield* tx.append("clicks_batch", fill(BATCH, round), { temp: true })
        yield* tx.run("INSERT INTO clicks SELECT * FROM clicks_batch")
      })
    )
    console.log(
      `${BATCH} clicks per batch into PostgreSQL: COPY into clicks ${direct.toFixed(1)} ms, ` +
        `COPY into a TEMP table + INSERT ... SELECT ${staged.toFixed(1)} ms (ratio ${(staged / direct).toFixed(2)}x)  (load ${load()})`
    )
  } finally {
    await service.close()
    service.remove()
  }
}

try {
  console.log(`redirect load: ${CONNECTIONS} connections, ${SECONDS} s, 1,000 links`)
  const duck = await redirectLoad("DuckDB", {})
  const pg = await redirectLoad("PostgreSQL", { databaseUrl: Option.some(Redacted.make(databaseUrl)) })
  console.log(
    `PostgreSQL / DuckDB: req/s ${(pg.rps / duck.rps).toFixed(2)}x, writer time per click ${(pg.writeUs / duck.writeUs).toFixed(2)}x, ` +
      `event-loop CPU per request ${(pg.loopUs / duck.loopUs).toFixed(2)}x`
  )
  await copyPaths()
} finally {
  await meili.close()
  await embedded?.stop()
}
