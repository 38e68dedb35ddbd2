import { expect } from "vitest"
import { DiscoverySearch } from "../../discovery/DiscoverySearch.ts"
import { PipelineRunner } from "../../pipelines/PipelineRunner.ts"
import { referenceClock } from "../../scripts/lib/referenceClock.ts"
import { AS_OF } from "../../scripts/products/product.ts"
import { startService, type RunningService } from "./TestService.ts"

/**
 * A service over the shipped sample catalog (data/samples), ingested through
 * the real pipelines, with the search vocabulary refreshed so intent parsing
 * knows the catalog's categories and brands. Price history may be skipped
 * (unchanged); any other failed run fails the suite. The service's calendar
 * starts at the instant the samples describe (AS_OF), so sale windows and
 * price history read the same whatever day the suite runs (`wallNow` stands
 * in for the day, to show it).
 */
export const startSampleService = async (wallNow: () => number = Date.now): Promise<RunningService> => {
  const service = await startService({}, { clock: referenceClock(AS_OF, wallNow) })
  const runs = await service.run(PipelineRunner.use((runner) => runner.runAll("manual")))
  const failed = runs.filter(
    (run) => (run.status === "failed" || run.status === "interrupted") && run.kind !== "price_history"
  )
  expect(failed, JSON.stringify(failed)).toEqual([])
  await service.run(DiscoverySearch.use((search) => search.refreshVocabulary))
  return service
}
