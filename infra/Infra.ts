import { Layer } from "effect"
import { DataDirLayer } from "./DataDir.ts"
import { Database } from "./Database.ts"
import { CatalogEvents } from "./events/CatalogEvents.ts"
import { LinkEvents } from "./events/LinkEvents.ts"
import { MemoryGaugesLayer } from "./MemoryGauges.ts"
import { Metrics } from "./Metrics.ts"
import { SearchEngine } from "./SearchEngine.ts"
import { Staging } from "./Staging.ts"

// The infrastructure of a process that owns DATA_DIR (the server, or an
// operator command running in-process): DATA_DIR is made private and locked
// first, so DuckDB and Meilisearch files are created 0600 and never by two
// processes at once. The event streams are the process's own, shared by every feature.
// DuckDB (open + migrate) and the embedded Meilisearch (spawn, wait for health)
// need nothing of each other, so they start side by side (mergeAll builds concurrently).
export const InfraLayer = MemoryGaugesLayer.pipe(
  Layer.provideMerge(Layer.mergeAll(Staging.layer, CatalogEvents.layer, LinkEvents.layer)),
  Layer.provideMerge(Layer.mergeAll(Database.layer, SearchEngine.layer)),
  Layer.provideMerge(Metrics.layer),
  Layer.provideMerge(DataDirLayer)
)
