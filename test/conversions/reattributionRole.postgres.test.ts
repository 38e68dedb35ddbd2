import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { Database } from "../../infra/Database.ts"
import { type RunningService, startService } from "../support/TestService.ts"
import { conversionBeforeItsLink } from "./fixtures.ts"

// The scheduled re-attribution pass runs once for the cluster: only in the
// process holding the pipeline WorkerLock (ROLE=worker or all), never in an
// API replica, although every process has schedules enabled. Each start runs
// a pass at once, so an API replica that ran it would attribute at start-up.
const started: Array<RunningService> = []
afterAll(async () => {
  for (const service of started.reverse()) await service.close()
})

const start = async (overrides: Parameters<typeof startService>[0]) => {
  const service = await startService({ schedulesEnabled: true, ingestOnStart: false, ...overrides })
  started.push(service)
  return service
}

const trackingIdOf = (service: RunningService, id: string) =>
  service.run(
    Effect.flatMap(Database, (db) =>
      db.query<{ tracking_id: string | null }>("SELECT tracking_id FROM conversions WHERE id = $1", [id])
    )
  )

describe("re-attribution schedule with several replicas", () => {
  it("does not run in ROLE=api replicas; runs in the ROLE=worker holding the WorkerLock", async () => {
    const api = await start({ role: "api" })
    await api.run(conversionBeforeItsLink("LATE-1", "RestoredLink1"))
    const databaseUrl = api.config.databaseUrl
    const secondApi = await start({ role: "api", databaseUrl })
    // Time for a start-up pass, had one been started: it takes milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(await trackingIdOf(secondApi, "dev:LATE-1")).toEqual([{ tracking_id: null }])

    await start({ role: "worker", databaseUrl })
    await expect
      .poll(() => trackingIdOf(api, "dev:LATE-1"), { timeout: 20_000, interval: 100 })
      .toEqual([{ tracking_id: "RestoredLink1" }])
  })
})
