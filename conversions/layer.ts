import { Layer } from "effect"
import { registerLoader } from "../pipelines/FeedLoaders.ts"
import { ConversionLedger } from "./ConversionLedger.ts"
import { ConversionQueries } from "./ConversionQueries.ts"
import { ConversionReportLoader } from "./ConversionReportLoader.ts"
import { ReattributionSchedule } from "./ReattributionSchedule.ts"
import { ReportingRates } from "./ReportingRates.ts"

/** The conversions feature's services (needs Database and AppConfig). */
export const layer = Layer.mergeAll(ConversionLedger.layer, ConversionQueries.layer).pipe(
  Layer.provideMerge(ReportingRates.layer)
)

/**
 * What runs only in the process holding the pipeline WorkerLock (ROLE=worker,
 * or all): one re-attribution pass for the cluster, not one per API replica.
 */
export const workerSchedules = ReattributionSchedule

/** The `conversions` feed kind, registered into the pipelines' FeedLoaders (the runner and the CLI's in-process mode). */
export const loaders = registerLoader(ConversionReportLoader)
