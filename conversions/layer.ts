import { Layer } from "effect"
import { registerLoader } from "../pipelines/FeedLoaders.ts"
import { ConversionLedger } from "./ConversionLedger.ts"
import { ConversionQueries } from "./ConversionQueries.ts"
import { ConversionReportLoader } from "./ConversionReportLoader.ts"
import { ReattributionSchedule } from "./ReattributionSchedule.ts"
import { ReportingRates } from "./ReportingRates.ts"

/** The conversions feature's services (needs Database and AppConfig), and the re-attribution schedule. */
export const layer = ReattributionSchedule.pipe(
  Layer.provideMerge(Layer.mergeAll(ConversionLedger.layer, ConversionQueries.layer)),
  Layer.provideMerge(ReportingRates.layer)
)

/** The `conversions` feed kind, registered into the pipelines' FeedLoaders (the runner and the CLI's in-process mode). */
export const loaders = registerLoader(ConversionReportLoader)
