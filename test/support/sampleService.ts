import { expect } from "vitest"
import { DiscoverySearch } from "../../discovery/DiscoverySearch.ts"
import { PipelineRunner } from "../../pipelines/PipelineRunner.ts"
import { startService, type RunningService } from "./TestService.ts"

/**
 * A service over the shipped sample catalog (data/samples), ingested through
 * the real pipelines, with the search vocabulary refreshed so intent parsing
 * knows the catalog's categories and brands. Price history may be skipped
 * (unchanged); any other failed run fails the suite.
 */
export const startSampleService = async (): Promise<RunningService> => {
  const service = await startService()
  const runs = await service.run(PipelineRunner.use((runner) => runner.runAll("manual")))
  const failed = runs.filter(
    (run) => (run.status === "failed" || run.status === "interrupted") && run.kind !== "price_history"
  )
  expect(failed, JSON.stringify(failed)).toEqual([])
  await service.run(DiscoverySearch.use((search) => search.refreshVocabulary))
  return service
}
