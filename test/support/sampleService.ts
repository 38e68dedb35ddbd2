import { Option, Redacted } from "effect"
import { DiscoverySearch } from "../../discovery/DiscoverySearch.ts"
import { referenceClock } from "../../scripts/lib/referenceClock.ts"
import { sampleSnapshot } from "./sampleSnapshot.ts"
import { startService, type RunningService } from "./TestService.ts"

/**
 * A service over the shipped sample catalog (data/samples) as the real
 * pipelines ingest it, for files that serve it: started from this run's
 * snapshot of that ingest (sampleSnapshot.ts) in a second or two instead of
 * ingesting again. Its data is its own copy; the search indexes are shared
 * and read-only (a sync fails). The calendar goes on from where the
 * ingest's ended (which started at the instant the samples describe, AS_OF),
 * as a service that has just ingested would, so sale windows and price
 * history read the same whatever day the suite runs; the vocabulary is
 * refreshed as after an ingest.
 * `ownIndexes`: for a file that syncs, indexes of its own instead, empty
 * until its first sync (which rebuilds them from the catalog).
 */
export const startSampleService = async ({ ownIndexes = false } = {}): Promise<RunningService> => {
  const snapshot = await sampleSnapshot()
  const sharedIndexes = {
    meiliIndexPrefix: snapshot.indexPrefix,
    meiliMasterKey: Option.some(Redacted.make(snapshot.readOnlyKey))
  }
  const service = await startService(ownIndexes ? {} : sharedIndexes, {
    clock: referenceClock(snapshot.ingestedAt),
    seed: {
      dataDir: snapshot.dataDir,
      ...(snapshot.databaseTemplate === undefined ? {} : { databaseTemplate: snapshot.databaseTemplate })
    }
  })
  await service.run(DiscoverySearch.use((search) => search.refreshVocabulary))
  return service
}
