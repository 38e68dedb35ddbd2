import { Option } from "effect"
import { readdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { restartDelayMs } from "../../infra/MeiliSupervisor.ts"
import { meiliProcessesOn } from "../../infra/MeiliPidFile.ts"
import { SearchSync } from "../../pipelines/search/SearchSync.ts"
import { insertProducts } from "../support/catalogFixtures.ts"
import { discoveryCatalog } from "../support/discoveryCatalog.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// The service with its own embedded Meilisearch (no MEILI_URL), as `npm start`
// runs it: we SIGKILL the real child and watch the service bring it back by
// itself, without restarting our process.

/** The bound on recovery: the first restart waits 0.5 s; Meilisearch reopens its data in about a second here. */
const RECOVERY_MS = 20_000

const poll = async (what: string, check: () => Promise<boolean>, ms: number) => {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${what}: not within ${ms} ms`)
}

const metricsOf = async (service: RunningService) =>
  (await fetch(`${service.url}/metrics`, { headers: { authorization: "Bearer test-admin-token" } })).text()

describe("embedded Meilisearch under supervision", () => {
  let service: RunningService
  const meiliDir = () => join(service.dataDir, "meilisearch")

  beforeAll(async () => {
    service = await startService({ meiliUrl: Option.none(), meiliMasterKey: Option.none(), meiliIndexPrefix: "" })
    await service.run(insertProducts(discoveryCatalog))
    await service.run(SearchSync.use((sync) => sync.syncProducts()))
  })
  afterAll(async () => {
    const dir = meiliDir()
    await service?.close()
    // closing the service stops its child
    expect(meiliProcessesOn(dir)).toEqual([])
  })

  it("backs off exponentially between restarts, at most 30 s", () => {
    expect([0, 1, 2, 3, 6, 7, 20].map(restartDelayMs)).toEqual([500, 1000, 2000, 4000, 30_000, 30_000, 30_000])
  })

  it("restarts the child after a SIGKILL: search answers 200 again, /ready recovers, /metrics counts the restart", async () => {
    expect((await fetch(`${service.url}/api/search?q=tv`)).status).toBe(200)
    expect(await metricsOf(service)).toContain('meilisearch_child_state{state="running"} 1')
    const [pid] = meiliProcessesOn(meiliDir())
    expect(pid).toBeGreaterThan(0)

    const killedAt = Date.now()
    process.kill(pid, "SIGKILL")
    // while it is down: a prompt 503 with Retry-After, as before (checked on the 503 itself: the restart may be quick)
    let retryAfter: string | null = null
    await poll(
      "search 503 after the kill",
      async () => {
        const response = await fetch(`${service.url}/api/search?q=tv`)
        retryAfter = response.headers.get("retry-after")
        return response.status === 503
      },
      5_000
    )
    expect(retryAfter).toBe("5")

    await poll(
      "search 200 again",
      async () => (await fetch(`${service.url}/api/search?q=tv`)).status === 200,
      RECOVERY_MS
    )
    const recoveredMs = Date.now() - killedAt
    console.info(`search answered 200 again ${recoveredMs} ms after the SIGKILL`)
    expect(recoveredMs).toBeLessThan(RECOVERY_MS)

    const search: any = await (await fetch(`${service.url}/api/search?q=tv`)).json()
    expect(search.count).toBeGreaterThan(0)
    expect((await fetch(`${service.url}/ready`)).status).toBe(200)
    // The supervisor marks the child running after its own health check, which
    // may come a moment after the first search that succeeds.
    await poll(
      "child state running",
      async () => (await metricsOf(service)).includes('meilisearch_child_state{state="running"} 1'),
      5_000
    )
    const metrics = await metricsOf(service)
    expect(metrics).toContain("meilisearch_restarts_total 1")
    expect(metrics).toContain('meilisearch_child_state{state="running"} 1')
    expect(metrics).toContain('meilisearch_child_state{state="restarting"} 0')
    const after = meiliProcessesOn(meiliDir())
    expect(after).toHaveLength(1)
    expect(after[0]).not.toBe(pid)
  })

  it("keeps every file of DATA_DIR private: folder 0700, files 0600 (DuckDB, Meilisearch data, lock and pid files)", () => {
    const loose: Array<string> = []
    let files = 0
    const visit = (path: string) => {
      const stat = statSync(path)
      if (stat.isDirectory()) {
        if ((stat.mode & 0o777) !== 0o700) loose.push(`${path} ${(stat.mode & 0o777).toString(8)}`)
        for (const name of readdirSync(path)) visit(join(path, name))
      } else {
        files++
        if ((stat.mode & 0o077) !== 0) loose.push(`${path} ${(stat.mode & 0o777).toString(8)}`)
      }
    }
    visit(service.dataDir)
    expect(files).toBeGreaterThan(5)
    expect(readdirSync(service.dataDir)).toEqual(
      expect.arrayContaining(["catalog.duckdb", "meilisearch", "service.pid"])
    )
    expect(loose).toEqual([])
  })
})
