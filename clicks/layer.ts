import { ClickRecorder } from "./ClickRecorder.ts"

/** The click writer (bounded queue, worker, journal): fed by the redirect, read by stats. */
export const layer = ClickRecorder.layer
