import { Layer } from "effect"
import { ClickMaintenance } from "./ClickMaintenance.ts"
import { ClickRecorder } from "./ClickRecorder.ts"

/** The click writer (bounded queue, worker, journal), fed by the redirect and read by stats, and its housekeeping. */
export const layer = Layer.mergeAll(ClickRecorder.layer, ClickMaintenance.layer)
