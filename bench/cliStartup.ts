// npm run bench:cli-startup
// Wall time of `aff` as a child process (start-up is most of what a CLI
// command costs):
// - `aff --version`: start-up alone, with Node's on-disk compile cache (as
//   shipped) and, alternated with it in the same run, without
//   (NODE_DISABLE_COMPILE_CACHE=1, the baseline);
// - `aff networks` against a loopback stub that answers one fixed page: a
//   command's whole cost, start-up plus the API contract its client is
//   derived from, one call and its decoding (compile cache on).
// BENCH_RUNS (default 20) per variant; the first run of each fills the cache
// and is not counted. The machine's load is printed beside the figures.
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg, tmpdir } from "node:os"
import { join, resolve } from "node:path"

const RUNS = Number(process.env.BENCH_RUNS ?? 20)
const repo = resolve(import.meta.dirname, "..")
const node = join(repo, "node_modules", ".bin", "node")
const cacheDir = mkdtempSync(join(tmpdir(), "aff-compile-cache-"))

// Node treats NODE_DISABLE_COMPILE_CACHE as set whatever its value, so the cached variant must not carry it at all
const { NODE_DISABLE_COMPILE_CACHE: _inherited, ...baseEnv } = process.env

/** One network as GET /api/v1/networks lists it. */
const NETWORK = {
  id: "awin",
  name: "Awin",
  status: "active",
  website: "https://www.awin.com",
  click_hosts: ["www.awin1.com"],
  subid_param: "clickref",
  confidence: "H",
  successor_id: null,
  regions: ["GLOBAL"],
  programs: 1200
}
const NETWORKS_PAGE = JSON.stringify({
  data: Array.from({ length: 20 }, (_, i) => ({ ...NETWORK, id: `network-${i}` })),
  pagination: { limit: 20, offset: 0, total: 122, next_offset: 20 }
})

// spawned, not spawnSync: the stub answers from this process's event loop
const once = (args: ReadonlyArray<string>, extraEnv: Record<string, string>) =>
  new Promise<number>((resolvePromise, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(node, ["cli/partner.ts", ...args], {
      cwd: repo,
      env: { ...baseEnv, NODE_COMPILE_CACHE: cacheDir, HOME: cacheDir, ...extraEnv },
      stdio: ["ignore", "ignore", "pipe"]
    })
    let stderr = ""
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.on("error", reject)
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`aff ${args.join(" ")} exited ${code}: ${stderr}`))
      else resolvePromise(Number(process.hrtime.bigint() - started) / 1e6)
    })
  })

const stub = createServer((request, response) => {
  request.resume()
  response.writeHead(200, { "content-type": "application/json" }).end(NETWORKS_PAGE)
})
await new Promise<void>((listening) => stub.listen(0, "127.0.0.1", listening))
const server = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`

const variants = {
  "version (cached)": () => once(["--version"], {}),
  "version (uncached)": () => once(["--version"], { NODE_DISABLE_COMPILE_CACHE: "1" }),
  "networks (cached)": () => once(["networks", "--server", server], {})
}
try {
  const load = () => loadavg()[0]!.toFixed(2)
  console.log(`load average (1 min) before: ${load()}`)
  for (const run of Object.values(variants)) await run() // fills the cache
  const times = Object.fromEntries(Object.keys(variants).map((name) => [name, [] as Array<number>]))
  // alternate, so machine noise hits every variant alike
  for (let i = 0; i < RUNS; i++) for (const [name, run] of Object.entries(variants)) times[name]!.push(await run())
  const sorted = (values: Array<number>) => [...values].sort((a, b) => a - b)
  const median = (values: Array<number>) => sorted(values)[Math.floor(values.length / 2)]!
  const p90 = (values: Array<number>) => sorted(values)[Math.floor(values.length * 0.9)]!
  for (const [name, values] of Object.entries(times)) {
    console.log(
      `${name.padEnd(19)} median ${median(values).toFixed(0)} ms, p90 ${p90(values).toFixed(0)} ms (${RUNS} runs)`
    )
  }
  const ratio = median(times["version (uncached)"]!) / median(times["version (cached)"]!)
  console.log(`compile cache: start-up x${ratio.toFixed(2)} faster (median)`)
  console.log(`load average (1 min) after: ${load()}`)
} finally {
  stub.close()
  rmSync(cacheDir, { recursive: true, force: true })
}
