import { Layer } from "effect"
import { ClickRecorder } from "../../clicks/ClickRecorder.ts"
import { RedirectLinks } from "../redirect/RedirectLinks.ts"
import { LinkMatching } from "./links/LinkMatching.ts"
import { ProgramMatcher } from "./links/ProgramMatcher.ts"
import { TrackingLinks } from "./links/TrackingLinks.ts"
import { Partners } from "./partners/Partners.ts"

/** The link service's storage-backed services, shared by /api/v1 and the redirect (and the click writer). */
const Storage = Layer.mergeAll(Partners.layer, ProgramMatcher.layer, TrackingLinks.layer, ClickRecorder.layer)

export const LinkServices = Layer.mergeAll(LinkMatching.layer, RedirectLinks.layer).pipe(Layer.provideMerge(Storage))
