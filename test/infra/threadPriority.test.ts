import { Effect, Layer } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { getPriority } from "node:os"
import { describe, expect, it } from "vitest"
import { ClickRecorder } from "../../clicks/ClickRecorder.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Database } from "../../infra/Database.ts"
import { Metrics } from "../../infra/Metrics.ts"
import { BACKGROUND_NICE, CLICK_WORKER_NICE, lowerThreadsNamed } from "../../infra/threadPriority.ts"
import { tempDir } from "../support/TestService.ts"

// The click recorder's background work runs below the event loop: the click
// worker thread lowers itself, DuckDB's threads are lowered when the recorder
// starts, and the main thread keeps its priority (Linux, where CI runs).
const niceByThread = () =>
  readdirSync("/proc/self/task").map((task) => {
    const stat = readFileSync(`/proc/self/task/${task}/stat`, "latin1")
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))
    // field 19 of /proc/[pid]/task/[tid]/stat is the nice value
    const nice = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16])
    return { name, nice }
  })

describe("background thread priority", () => {
  it("runs the click worker and DuckDB's threads nicer than the event loop, leaving the main thread as it was", async () => {
    const mainBefore = getPriority(process.pid)
    const data = tempDir("priority-")
    const layer = ClickRecorder.layer.pipe(
      Layer.provideMerge(Database.layer),
      Layer.provideMerge(Metrics.layer),
      Layer.provide(AppConfig.layerWith({ dataDir: data.dir }))
    )
    const threads = await Effect.runPromise(
      Effect.scoped(Effect.flatMap(Layer.build(layer), () => Effect.sync(niceByThread)))
    ).finally(data.rm)
    const niceOf = (name: string) => threads.filter((t) => t.name === name).map((t) => t.nice)

    expect(getPriority(process.pid)).toBe(mainBefore)
    expect(niceOf("MainThread")).toEqual([mainBefore])
    expect(niceOf("WorkerThread")).toContain(Math.min(19, mainBefore + CLICK_WORKER_NICE))
    const pool = niceOf("libuv-worker")
    expect(pool.length).toBeGreaterThan(0)
    expect(pool.every((nice) => nice === Math.min(19, mainBefore + BACKGROUND_NICE))).toBe(true)
  })

  it("is idempotent: lowering again keeps the same distance from the main thread", () => {
    lowerThreadsNamed("libuv-worker", BACKGROUND_NICE)
    lowerThreadsNamed("libuv-worker", BACKGROUND_NICE)
    const expected = Math.min(19, getPriority(process.pid) + BACKGROUND_NICE)
    const pool = niceByThread().filter((t) => t.name === "libuv-worker")
    expect(pool.length).toBeGreaterThan(0)
    expect(pool.map((t) => t.nice).every((nice) => nice === expected)).toBe(true)
  })
})
