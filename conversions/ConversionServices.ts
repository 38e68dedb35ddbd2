import { Layer } from "effect"
import { ConversionLedger } from "./ConversionLedger.ts"
import { ConversionQueries } from "./ConversionQueries.ts"
import { ReattributionSchedule } from "./ReattributionSchedule.ts"
import { ReportingRates } from "./ReportingRates.ts"

/** The conversions feature's services (needs Database and AppConfig), and the re-attribution schedule. */
export const ConversionServices = ReattributionSchedule.pipe(
  Layer.provideMerge(Layer.mergeAll(ConversionLedger.layer, ConversionQueries.layer)),
  Layer.provideMerge(ReportingRates.layer)
)
