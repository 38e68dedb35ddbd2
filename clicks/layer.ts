import { Layer } from "effect"
import { ClickMaintenance } from "./ClickMaintenance.ts"
import { ClickRecorder } from "./ClickRecorder.ts"
import { ClickStorage } from "./ClickStorage.ts"

/** The click writer (bounded queue, worker, journal), fed by the redirect and read by stats, and its housekeeping. */
export const layer = Layer.mergeAll(ClickRecorder.layer, ClickMaintenance.layer)

/** Clicks in a store one process owns: one journal, uniques and salts in memory. */
export const singleProcess = ClickStorage.layerSingleProcess
/** Clicks in a store replicas share: uniques, salts and day partitions in the store. */
export const replicas = ClickStorage.layerReplicas
