import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { startNodeFlags } from "../bench/support/shippedService.ts"

// `npm start` caps V8's young generation of the main thread (package.json:
// --max-semi-space-size). By default V8 let it grow to 128 MB during the
// start-up ingest and kept it committed while a big feed's load held DuckDB
// at its memory limit (docs/performance.md, "Peak RSS during a feed run").
// The flag is read as the process starts only: setting it from main.ts
// (v8.setFlagsFromString) leaves the young generation as it was.

const startScript = (
  JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as {
    scripts: Record<string, string>
  }
).scripts.start

/** Node's flags in the start script, before main.ts, as the benches give them. */
const startFlags = startNodeFlags(join(import.meta.dirname, ".."))

// Allocates as a busy start-up does (many short-lived objects, some kept),
// then prints the young generation's committed size in bytes.
const allocate = `
  const v8 = require("node:v8")
  const kept = []
  for (let round = 0; round < 20; round++) {
    const batch = []
    for (let i = 0; i < 300000; i++) batch.push({ i, text: "offer " + i })
    kept.push(batch.slice(0, 20000))
  }
  const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space")
  console.log(young.space_size, kept.length)
`

describe("npm start's V8 heap", () => {
  it("keeps the main thread's young generation within 64 MB (two 32 MB semi-spaces)", () => {
    expect(startScript).toMatch(/main\.ts$/)
    const run = spawnSync(process.execPath, [...startFlags, "-e", allocate], { encoding: "utf8" })
    expect(run.status).toBe(0)
    const youngBytes = Number(run.stdout.trim().split(" ")[0])
    expect(youngBytes).toBeGreaterThan(0)
    expect(youngBytes).toBeLessThanOrEqual(64 * 1024 * 1024)
  })
})
