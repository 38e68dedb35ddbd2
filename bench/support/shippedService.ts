import { spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { freeLoopbackPort } from "../../infra/freeLoopbackPort.ts"
import { meiliProcessesOn } from "../../infra/MeiliPidFile.ts"
import { processCpuTicks } from "../../infra/ProcessInfo.ts"
import { sessionPriorityWarning } from "./machineLoad.ts"

// The service as users run it, for the benches: `npm start`'s entry point
// (main.ts) in a child process on a fresh DATA_DIR, which ingests the sample
// catalog through the pipelines on its first start (or a generated one: pass
// FEEDS_CONFIG; or a catalog already in `dataDir`: pass INGEST_ON_START=false),
// behind a trusted proxy (TRUST_PROXY=1, so a load can spread its visitors over
// X-Forwarded-For), with the per-client rate limits lifted (a bench is one
// client flooding on purpose). `env` adds to (or overrides) that environment:
// ROLE, DATABASE_URL, MEILI_URL... Resolves once /ready answers 200.

const repo = resolve(import.meta.dirname, "../..")
const node = join(repo, "node_modules", ".bin", "node")

/**
 * The Node flags `npm start` gives main.ts in the checkout at `root` (its
 * package.json's start script, `exec node <flags> main.ts`): the benches run
 * the entry point as it ships, V8's heap settings included.
 */
export const startNodeFlags = (root: string): ReadonlyArray<string> => {
  const scripts = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts as Record<string, string>
  const flags = /^exec node (.*?) ?main\.ts$/.exec(scripts.start ?? "")?.[1] ?? ""
  return flags === "" ? [] : flags.split(" ")
}
const UNLIMITED = "1000000000"

/** CPU seconds (user + system) a live process used so far (Linux /proc); NaN once it is gone. */
export const processCpuSeconds = (pid: number | undefined) => {
  // clock ticks of 10 ms (USER_HZ 100)
  const ticks = pid === undefined ? undefined : processCpuTicks(pid)
  return ticks === undefined ? Number.NaN : ticks / 100
}

export interface ShippedService {
  readonly url: string
  readonly pid: number
  readonly adminToken: string
  /** Seconds from spawn to /ready. */
  readonly readySeconds: number
  /** The first sample of a metric on /metrics (labels ignored); NaN when absent. */
  readonly metric: (name: string) => Promise<number>
  /** The service's JSON log lines so far. */
  readonly log: () => ReadonlyArray<string>
  /** The embedded Meilisearch's pid now (its supervisor may have restarted it); undefined with MEILI_URL. */
  readonly meiliPid: () => number | undefined
  /** SIGTERM, wait for the exit, remove DATA_DIR (unless the caller gave it). */
  readonly stop: () => Promise<void>
}

export interface ShippedOptions {
  /** Node flags before main.ts (e.g. --cpu-prof): still `npm start`'s entry point, observed. */
  readonly nodeArgs?: ReadonlyArray<string>
  /** A DATA_DIR the caller owns (kept on stop); default: a fresh one, removed on stop. */
  readonly dataDir?: string
  /** Another checkout's main.ts (e.g. the code before a change, to compare both in one run); default: this one. */
  readonly root?: string
}

export const startShippedService = async (
  env: Record<string, string> = {},
  timeoutMs = 600_000,
  options: ShippedOptions = {}
): Promise<ShippedService> => {
  const ownDataDir = options.dataDir === undefined
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "aff-bench-shipped-"))
  const port = await freeLoopbackPort()
  const adminToken = randomBytes(16).toString("hex")
  const began = performance.now()
  const child = spawn(node, [...startNodeFlags(options.root ?? repo), ...(options.nodeArgs ?? []), "main.ts"], {
    cwd: options.root ?? repo,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      ADMIN_TOKEN: adminToken,
      TRUST_PROXY: "1",
      LOG_LEVEL: "Info",
      RATE_LIMIT_IP_PER_MINUTE: UNLIMITED,
      RATE_LIMIT_IP_BURST: UNLIMITED,
      RATE_LIMIT_KEY_PER_MINUTE: UNLIMITED,
      RATE_LIMIT_KEY_BURST: UNLIMITED,
      CONCURRENT_REQUESTS_PER_IP: UNLIMITED,
      ...env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const lines: Array<string> = []
  let pending = ""
  child.stdout.on("data", (chunk: Buffer) => {
    const parts = (pending + chunk.toString()).split("\n")
    pending = parts.pop() ?? ""
    lines.push(...parts)
  })
  let stderr = ""
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  let exited: number | null | undefined
  child.on("exit", (code) => (exited = code))
  const stop = async () => {
    if (exited === undefined) {
      const gone = new Promise((done) => child.once("exit", done))
      child.kill("SIGTERM")
      await gone
    }
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true })
  }
  const url = `http://127.0.0.1:${port}`
  try {
    for (;;) {
      if (exited !== undefined) throw new Error(`the service exited (${exited}): ${stderr.slice(-2_000)}`)
      if (performance.now() - began > timeoutMs) throw new Error(`not ready after ${timeoutMs} ms`)
      const ready = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(2_000) })
        .then(async (response) => (await response.arrayBuffer(), response.status === 200))
        .catch(() => false)
      if (ready) break
      await new Promise((done) => setTimeout(done, 100))
    }
  } catch (error) {
    await stop()
    throw error
  }
  const meiliPid = () => meiliProcessesOn(join(dataDir, "meilisearch"))[0]
  const warning = sessionPriorityWarning(meiliPid())
  if (warning !== "") console.log(warning)
  return {
    url,
    pid: child.pid!,
    adminToken,
    readySeconds: (performance.now() - began) / 1000,
    metric: async (name: string) => {
      const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${adminToken}` } })
      const text = await response.text()
      return Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([\\d.e+-]+)$`, "m").exec(text)?.[1] ?? "NaN")
    },
    log: () => lines,
    meiliPid,
    stop
  }
}

/**
 * Tracking links made through the API as a partner makes them (POST
 * /api/v1/links/match, anonymous), one per page of the sample programmes'
 * domains; their redirect paths (/t/{id}).
 */
export const matchLinks = async (url: string, count: number): Promise<ReadonlyArray<string>> => {
  const domains = readFileSync(join(repo, "data/samples/programs.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => (JSON.parse(line) as { domains: Array<string>; status: string }).domains)
  const paths: Array<string> = []
  for (let i = 0; paths.length < count && i < count * 3; i++) {
    const response = await fetch(`${url}/api/v1/links/match`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": `198.19.${i >> 8}.${i % 256}` },
      body: JSON.stringify({ url: `https://www.${domains[i % domains.length]}/p/bench-${i}` })
    })
    const body = (await response.json()) as { matched?: boolean; link?: { tracking_url?: string } }
    const tracking = body.link?.tracking_url
    if (body.matched === true && tracking !== undefined) paths.push(new URL(tracking).pathname)
  }
  if (paths.length === 0) throw new Error("no link matched a sample programme")
  return paths
}
