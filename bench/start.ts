// npm run bench:start
// The service's start-up as a user meets it: `npm start`'s entry point
// (main.ts) as a child process on a fresh DATA_DIR (no catalog, no search
// index: a fresh clone), timed from outside to its first log line, /health
// and /ready (the sample catalog loaded and searchable), with where the time
// went read from its own log; then a warm restart on the same data. Printed
// against the targets with the machine load and the CPU seconds the service
// and its Meilisearch used (wall figures mean little on a loaded machine).
// BENCH_RUNS (default 3) fresh + warm pairs; the first run also starts with
// an empty compile cache (as a first `npm start` does), the others reuse it.
//
// `--products N` (e.g. 1000000): the catalog is instead one generated feed of
// N products (bench/support/pipelineCatalog.ts, generated under
// data/var/bench-start/ once and reused), the only feed configured
// (FEEDS_CONFIG). One fresh start ingests and indexes it (timed, no target),
// then BENCH_RUNS warm restarts on the same data are timed against the
// large-catalog target: /ready <= 10 s, with nothing ingested or synced again.
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { createInterface } from "node:readline"
import { parseArgs } from "node:util"
import { machineLoad } from "./support/machineLoad.ts"
import { benchFeedFile, BENCH_FEED } from "./support/pipelineCatalog.ts"
import { freeLoopbackPort } from "../infra/freeLoopbackPort.ts"
import { processCpuSeconds as cpuSeconds } from "./support/shippedService.ts"

const { values } = parseArgs({ options: { products: { type: "string" } } })
const PRODUCTS = values.products === undefined ? undefined : Number(values.products)
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
// a fresh start of a large generated catalog ingests and indexes all of it first
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? (PRODUCTS === undefined ? 240_000 : 4 * 3_600_000))
const TARGETS = { firstLineS: 1.5, freshReadyS: 8, warmReadyS: 3, largeWarmReadyS: 10 }
const repo = resolve(import.meta.dirname, "..")
const node = join(repo, "node_modules", ".bin", "node")
const compileCache = mkdtempSync(join(tmpdir(), "aff-bench-start-cache-"))

const answers = async (url: string) => {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) })
    await response.arrayBuffer()
    return response.status === 200
  } catch {
    return false
  }
}

interface LogLine {
  readonly at: number
  readonly message: string
  readonly annotations: Record<string, unknown>
}

interface Start {
  readonly firstLineS: number
  readonly healthS: number
  readonly readyS: number
  readonly serviceCpuS: number
  readonly meiliCpuS: number
  readonly lines: ReadonlyArray<LogLine>
  readonly load: string
}

const startOnce = async (dataDir: string, extraEnv: Record<string, string> = {}): Promise<Start> => {
  const port = await freeLoopbackPort()
  const began = performance.now()
  const seconds = () => (performance.now() - began) / 1000
  const child = spawn(node, ["main.ts"], {
    cwd: repo,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "Info",
      NODE_COMPILE_CACHE: compileCache,
      ...extraEnv
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const lines: Array<LogLine> = []
  let stderr = ""
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  createInterface({ input: child.stdout }).on("line", (text) => {
    const at = seconds()
    try {
      const parsed = JSON.parse(text) as { message?: string; annotations?: Record<string, unknown> }
      lines.push({ at, message: parsed.message ?? "", annotations: parsed.annotations ?? {} })
    } catch {
      lines.push({ at, message: text, annotations: {} })
    }
  })
  let exited: number | null | undefined
  child.on("exit", (code) => (exited = code))
  const base = `http://127.0.0.1:${port}`
  let healthS = Number.NaN
  let readyS = Number.NaN
  try {
    while (Number.isNaN(readyS)) {
      if (exited !== undefined) throw new Error(`the service exited (${exited}): ${stderr.slice(-2_000)}`)
      if (seconds() * 1000 > TIMEOUT_MS) throw new Error(`not ready after ${TIMEOUT_MS} ms`)
      if (Number.isNaN(healthS) && (await answers(`${base}/health`))) healthS = seconds()
      if (!Number.isNaN(healthS) && (await answers(`${base}/ready`))) readyS = seconds()
      else await new Promise((done) => setTimeout(done, 20))
    }
    const meiliPid = lines.find((line) => line.message === "embedded Meilisearch started")?.annotations.pid
    return {
      firstLineS: lines[0]?.at ?? Number.NaN,
      healthS,
      readyS,
      serviceCpuS: cpuSeconds(child.pid),
      meiliCpuS: cpuSeconds(typeof meiliPid === "number" ? meiliPid : undefined),
      lines,
      load: machineLoad()
    }
  } finally {
    if (exited === undefined) {
      const gone = new Promise((done) => child.once("exit", done))
      child.kill("SIGTERM")
      await gone
    }
  }
}

const fmt = (s: number) => (Number.isNaN(s) ? "-" : `${s.toFixed(2)} s`)
const verdict = (s: number, target: number) => (s <= target ? "PASS" : "MISSED")

/** Where the time went, from the service's own log lines. */
const phases = (start: Start) => {
  const at = (message: string) => start.lines.find((line) => line.message === message)
  const out: Array<string> = []
  const first = start.lines[0]
  if (first?.annotations.moduleLoadMs !== undefined) {
    out.push(
      `module load ${first.annotations.moduleLoadMs} ms, ${first.annotations.moduleLoadCpuMs ?? "-"} ms CPU ` +
        `(process start to the first log line)`
    )
  }
  const code = at("service code loaded")
  if (code !== undefined) {
    out.push(
      `service code loaded ${code.annotations.ms} ms after the first line, ${code.annotations.cpuMs ?? "-"} ms CPU ` +
        `(dynamic import of service.ts), done at ${fmt(code.at)}`
    )
  }
  const opened = at("catalog database opened")
  if (opened !== undefined) out.push(`DuckDB open + migrate ${opened.annotations.ms} ms, done at ${fmt(opened.at)}`)
  const meili = at("embedded Meilisearch started")
  if (meili !== undefined) out.push(`Meilisearch started at ${fmt(meili.at)}`)
  const ingest = at("empty catalog: ingesting every feed once")
  if (ingest !== undefined) out.push(`every layer built: ingest began at ${fmt(ingest.at)}`)
  for (const line of start.lines.filter((line) => line.annotations.event === "run_end")) {
    const a = line.annotations as {
      feed: string
      rowsLoaded: number
      status: string
      timings?: { fetchMs: number; loadMs: number; syncMs: number }
    }
    const ms = a.timings === undefined ? 0 : a.timings.fetchMs + a.timings.loadMs + a.timings.syncMs
    out.push(
      `  ${a.feed.padEnd(28)} ${a.status.padEnd(9)} ${String(a.rowsLoaded).padStart(7)} rows ` +
        `fetch ${a.timings?.fetchMs ?? "-"} ms, load ${a.timings?.loadMs ?? "-"} ms, follow-ups ${a.timings?.syncMs ?? "-"} ms ` +
        `(${ms} ms, ended at ${fmt(line.at)})`
    )
  }
  const synced = start.lines.find((line) => line.annotations.event === "batch_synced")
  if (synced !== undefined)
    out.push(`search sync (one, after the loads): ${synced.annotations.ms} ms, ended at ${fmt(synced.at)}`)
  const vocabulary = start.lines.find((line) => /vocabulary/i.test(line.message))
  if (vocabulary !== undefined) out.push(`vocabulary: "${vocabulary.message}" at ${fmt(vocabulary.at)}`)
  const done = at("startup ingest finished")
  if (done !== undefined) out.push(`start-up ingest finished at ${fmt(done.at)}`)
  return out
}

const report = (label: string, start: Start, readyTarget: number) => {
  console.log(`\n${label} (${start.load} at the end)`)
  console.log(
    `  first log line ${fmt(start.firstLineS)} ${verdict(start.firstLineS, TARGETS.firstLineS)} (target <= ${TARGETS.firstLineS} s)`
  )
  console.log(`  /health        ${fmt(start.healthS)}`)
  console.log(
    Number.isFinite(readyTarget)
      ? `  /ready         ${fmt(start.readyS)} ${verdict(start.readyS, readyTarget)} (target <= ${readyTarget} s)`
      : `  /ready         ${fmt(start.readyS)}`
  )
  console.log(`  CPU to ready: service ${start.serviceCpuS.toFixed(2)} s, Meilisearch ${start.meiliCpuS.toFixed(2)} s`)
  for (const line of phases(start)) console.log(`  ${line}`)
}

/** One fresh start of a generated catalog of `products` (ingested and indexed), then RUNS warm restarts. */
const largeCatalog = async (products: number) => {
  console.log(`bench:start --products ${products}, node ${process.version}, ${machineLoad()}`)
  const began = performance.now()
  const file = await benchFeedFile(join(repo, "data", "var", "bench-start", "feeds"), products)
  console.log(`feed file ${file} ready in ${((performance.now() - began) / 1000).toFixed(1)} s (${machineLoad()})`)
  const dataDir = mkdtempSync(join(tmpdir(), "aff-bench-start-large-"))
  const feedsConfig = join(dataDir, "feeds.json")
  writeFileSync(
    feedsConfig,
    JSON.stringify({
      feeds: [
        {
          name: BENCH_FEED,
          kind: "products",
          format: "gmc-tsv",
          location: file,
          options: { storeColumn: "custom_label_0" }
        }
      ]
    })
  )
  const env = { FEEDS_CONFIG: feedsConfig }
  const summary: Array<string> = []
  try {
    const fresh = await startOnce(dataDir, env)
    report(`fresh start: ${products} products ingested and indexed (no target)`, fresh, Number.POSITIVE_INFINITY)
    summary.push(`fresh /ready ${fmt(fresh.readyS)} (${fresh.load})`)
    for (let run = 1; run <= RUNS; run++) {
      const warm = await startOnce(dataDir, env)
      report(`warm restart ${run} on the same ${products} products`, warm, TARGETS.largeWarmReadyS)
      const resynced = warm.lines.filter((line) => line.annotations.event === "run_end").length
      summary.push(
        `warm ${run}: /ready ${fmt(warm.readyS)} ${verdict(warm.readyS, TARGETS.largeWarmReadyS)} ` +
          `(target <= ${TARGETS.largeWarmReadyS} s), feed runs during the start ${resynced}, ` +
          `CPU service ${warm.serviceCpuS.toFixed(2)} s / Meilisearch ${warm.meiliCpuS.toFixed(2)} s (${warm.load})`
      )
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
  console.log(`\nsummary (${products} products)\n${summary.join("\n")}`)
}

/** RUNS fresh + warm pairs of the sample catalog. */
const sampleCatalog = async () => {
  console.log(`bench:start, ${RUNS} fresh + warm pair(s), node ${process.version}, ${machineLoad()}`)
  const summary: Array<string> = []
  for (let run = 1; run <= RUNS; run++) {
    const dataDir = mkdtempSync(join(tmpdir(), "aff-bench-start-"))
    try {
      const fresh = await startOnce(dataDir)
      report(`run ${run}: fresh start${run === 1 ? " (empty compile cache)" : ""}`, fresh, TARGETS.freshReadyS)
      const warm = await startOnce(dataDir)
      report(`run ${run}: warm restart on the same data`, warm, TARGETS.warmReadyS)
      summary.push(
        `run ${run}: first line ${fmt(fresh.firstLineS)} / ${fmt(warm.firstLineS)}, fresh /ready ${fmt(fresh.readyS)} ` +
          `${verdict(fresh.readyS, TARGETS.freshReadyS)}, warm /ready ${fmt(warm.readyS)} ${verdict(warm.readyS, TARGETS.warmReadyS)} ` +
          `(${fresh.load}; ${warm.load})`
      )
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  console.log(`\nsummary\n${summary.join("\n")}`)
}

try {
  await (PRODUCTS === undefined ? sampleCatalog() : largeCatalog(PRODUCTS))
} finally {
  rmSync(compileCache, { recursive: true, force: true })
}
