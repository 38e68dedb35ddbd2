import { Layer } from "effect"
import { registerLoader } from "../pipelines/FeedLoaders.ts"
import { ConversionLedger } from "./ConversionLedger.ts"
import { ConversionQueries } from "./ConversionQueries.ts"
import { ConversionReportLoader } from "./ConversionReportLoader.ts"
import { ReattributeNewLinks } from "./ReattributeNewLinks.ts"
import { ReattributionSchedule } from "./ReattributionSchedule.ts"
import { ReportingRates } from "./ReportingRates.ts"

/**
 * The conversions feature's services (needs Database, AppConfig and
 * LinkEvents): new links attribute conversions that named them earlier.
 */
export const layer = ReattributeNewLinks.pipe(
  Layer.provideMerge(Layer.mergeAll(ConversionLedger.layer, ConversionQueries.layer)),
  Layer.provideMerge(ReportingRates.layer)
)

/**
 * What runs only in the process holding the pipeline WorkerLock (ROLE=worker,
 * or all): one re-attribution pass for the cluster, not one per API replica.
 */
export const workerSchedules = ReattributionSchedule

/** The `conversions` feed kind, registered into the pipelines' FeedLoaders (the runner and the CLI's in-process mode). */
export const loaders = registerLoader(ConversionReportLoader)
