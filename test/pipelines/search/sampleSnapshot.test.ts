import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SearchEngine } from "../../../infra/SearchEngine.ts"
import { Staging } from "../../../infra/Staging.ts"
import { SearchSync } from "../../../pipelines/search/SearchSync.ts"
import { PRODUCTS_INDEX } from "../../../readModel/indexes.ts"
import { getJson } from "../../support/http.ts"
import { startSampleService } from "../../support/sampleService.ts"
import type { RunningService } from "../../support/TestService.ts"

// Test files that serve the sample catalog share one snapshot's search
// indexes (test/support/sampleSnapshot.ts). A file that wrote to them would
// change what the others read, in whichever order they ran: its services
// may only read them, so such a write fails at once, where it was made.
describe("services over the sample snapshot", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startSampleService()
  })
  afterAll(() => service?.close())

  const productDocuments = () =>
    service.run(
      SearchEngine.use((search) =>
        search.use("stats", (client) => client.index(search.indexUid(PRODUCTS_INDEX)).getStats())
      ).pipe(Effect.map((stats) => stats.numberOfDocuments))
    )

  it("serve the ingested catalog at once", async () => {
    expect(await productDocuments()).toBeGreaterThan(400)
    const response = await getJson(`${service.url}/api/search?q=headphones`)
    expect(response.status).toBe(200)
    expect(response.body.results.length).toBeGreaterThan(0)
  })

  it("cannot write to the shared indexes: a sync fails, the index stays as it was", async () => {
    const before = await productDocuments()
    // a settings hash that no longer matches makes the sync rebuild the index
    await service.run(
      Staging.use((db) => db.run("DELETE FROM search_sync_state WHERE index_name = $1", [`${PRODUCTS_INDEX}:settings`]))
    )
    const sync = await service.run(Effect.result(SearchSync.use((sync) => sync.syncProducts())))
    expect(sync._tag).toBe("Failure")
    if (sync._tag === "Failure") expect(sync.failure.message).toMatch(/api key|not authorized|forbidden/i)
    expect(await productDocuments()).toBe(before)
  })
})
