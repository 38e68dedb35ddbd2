// npm run bench:cli-startup
// Wall time of `aff --version` as a child process (start-up is most of what a
// CLI command costs), with Node's on-disk compile cache (as shipped) and,
// alternated with it in the same run, without (NODE_DISABLE_COMPILE_CACHE=1,
// the baseline). BENCH_RUNS (default 20) per variant; the first cached run
// fills the cache and is not counted.
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

const RUNS = Number(process.env.BENCH_RUNS ?? 20)
const repo = resolve(import.meta.dirname, "..")
const node = join(repo, "node_modules", ".bin", "node")
const cacheDir = mkdtempSync(join(tmpdir(), "aff-compile-cache-"))

// Node treats NODE_DISABLE_COMPILE_CACHE as set whatever its value, so the cached variant must not carry it at all
const { NODE_DISABLE_COMPILE_CACHE: _inherited, ...baseEnv } = process.env

const once = (extraEnv: Record<string, string>) => {
  const started = process.hrtime.bigint()
  const run = spawnSync(node, ["cli/partner.ts", "--version"], {
    cwd: repo,
    env: { ...baseEnv, NODE_COMPILE_CACHE: cacheDir, ...extraEnv },
    encoding: "utf8"
  })
  if (run.status !== 0) throw new Error(`aff --version exited ${run.status}: ${run.stderr}`)
  return Number(process.hrtime.bigint() - started) / 1e6
}

const cached = {}
const uncached = { NODE_DISABLE_COMPILE_CACHE: "1" }
try {
  once(cached) // fills the cache
  const times = { cached: [] as Array<number>, uncached: [] as Array<number> }
  // alternate, so machine noise hits both variants alike
  for (let i = 0; i < RUNS; i++) {
    times.uncached.push(once(uncached))
    times.cached.push(once(cached))
  }
  const median = (values: Array<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
  const p90 = (values: Array<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)]
  for (const [name, values] of Object.entries(times)) {
    console.log(
      `${name.padEnd(9)} median ${median(values).toFixed(0)} ms, p90 ${p90(values).toFixed(0)} ms (${RUNS} runs)`
    )
  }
  console.log(`compile cache: start-up x${(median(times.uncached) / median(times.cached)).toFixed(2)} faster (median)`)
} finally {
  rmSync(cacheDir, { recursive: true, force: true })
}
