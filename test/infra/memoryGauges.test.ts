import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SearchSync } from "../../pipelines/search/SearchSync.ts"
import { CLICK_WORKER_NAME } from "../../clicks/ClickRecorder.ts"
import { SYNC_WORKER_NAME } from "../../pipelines/search/syncWorkerProtocol.ts"
import { SAMPLE_SECONDS } from "../../infra/MemoryGauges.ts"
import { statusBytes } from "../../infra/ProcessInfo.ts"
import { insertProducts } from "../support/catalogFixtures.ts"
import { startService, type RunningService } from "../support/TestService.ts"
import { waitFor } from "../support/waitFor.ts"

// Where the service's memory goes, on /metrics: the process's RSS and its
// peak, DuckDB's own accounting by tag, and the heap of each worker thread.

const metrics = async (service: RunningService) =>
  (await fetch(`${service.url}/metrics`, { headers: { authorization: "Bearer test-admin-token" } })).text()

/** A sample's value (NaN when the metric is absent). */
const value = (text: string, name: string, labels = "") => {
  const escaped = `${name}${labels}`.replace(/[{}"]/g, (c) => `\\${c}`)
  return Number(new RegExp(`^${escaped} ([\\d.e+-]+)$`, "m").exec(text)?.[1] ?? Number.NaN)
}

describe("memory on /metrics", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService()
  })
  afterAll(() => service?.close())

  it("shows the process's RSS and its peak as the kernel counts them", async () => {
    const text = await metrics(service)
    const rss = value(text, "process_resident_memory_bytes")
    const peak = value(text, "process_resident_memory_peak_bytes")
    // the same process: the test's own reading of /proc brackets the service's
    expect(rss).toBeGreaterThan(50 * 1024 * 1024)
    expect(Math.abs(rss - statusBytes("self", "VmRSS")!) / rss).toBeLessThan(0.2)
    expect(peak).toBeGreaterThanOrEqual(rss)
    expect(peak).toBeLessThanOrEqual(statusBytes("self", "VmHWM")!)
    // the main thread's heap: what it holds from the system, of which what it uses
    expect(value(text, "nodejs_heap_committed_bytes")).toBeGreaterThanOrEqual(value(text, "nodejs_heap_used_bytes"))
  })

  it("shows DuckDB's memory by tag, and the click worker's heap once sampled", async () => {
    // the click worker may start after the first sample: the next comes SAMPLE_SECONDS later
    await waitFor(
      async () => {
        const text = await metrics(service)
        expect(value(text, "nodejs_worker_heap_used_bytes", `{worker="${CLICK_WORKER_NAME}"}`)).toBeGreaterThan(
          1024 * 1024
        )
      },
      { timeoutMs: (SAMPLE_SECONDS + 5) * 1000 }
    )
    const text = await metrics(service)
    const worker = `{worker="${CLICK_WORKER_NAME}"}`
    expect(value(text, "nodejs_worker_heap_committed_bytes", worker)).toBeGreaterThanOrEqual(
      value(text, "nodejs_worker_heap_used_bytes", worker)
    )
    // the catalog's tables and their metadata are in DuckDB's memory once it opened them
    const tags = [...text.matchAll(/^duckdb_memory_bytes\{tag="([A-Z_]+)"\} ([\d.e+-]+)$/gm)]
    expect(tags.map(([, tag]) => tag)).toEqual(expect.arrayContaining(["BASE_TABLE", "METADATA", "IN_MEMORY_TABLE"]))
    expect(tags.reduce((sum, [, , bytes]) => sum + Number(bytes), 0)).toBeGreaterThan(0)
    expect(value(text, "duckdb_spilled_bytes")).toBeGreaterThanOrEqual(0)
  })

  it("lists a search sync's worker from its start, and reads 0 for it once it has exited", async () => {
    await service.run(insertProducts([{ itemId: "lamp", title: "Desk Lamp, Black", price: 30 }]))
    await service.run(SearchSync.use((sync) => sync.syncProducts()))
    const text = await metrics(service)
    expect(value(text, "nodejs_worker_heap_used_bytes", `{worker="${SYNC_WORKER_NAME}"}`)).toBe(0)
    expect(value(text, "nodejs_worker_heap_committed_bytes", `{worker="${SYNC_WORKER_NAME}"}`)).toBe(0)
  })
})
