import { Layer } from "effect"
import { ConversionLedger } from "./ConversionLedger.ts"
import { ConversionQueries } from "./ConversionQueries.ts"
import { ReportingRates } from "./ReportingRates.ts"

/** The conversions feature's services (needs Database and AppConfig). */
export const ConversionServices = Layer.mergeAll(ConversionLedger.layer, ConversionQueries.layer).pipe(
  Layer.provideMerge(ReportingRates.layer)
)
