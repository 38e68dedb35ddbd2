import { Layer } from "effect"
import { ClickRecorder } from "../../clicks/ClickRecorder.ts"
import { ConversionServices } from "../../conversions/ConversionServices.ts"
import { RedirectLinks } from "../../links/RedirectLinks.ts"
import { LinkMatching } from "../../links/LinkMatching.ts"
import { LinkReresolver } from "../../links/LinkReresolver.ts"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { TrackingLinks } from "../../links/TrackingLinks.ts"
import { Partners } from "../../partners/Partners.ts"

/** The link service's storage-backed services, shared by /api/v1 and the redirect (and the click writer). */
// New links attribute conversions that named them earlier, so links need the conversion ledger.
const Storage = Layer.mergeAll(Partners.layer, ProgramMatcher.layer, TrackingLinks.layer, ClickRecorder.layer).pipe(
  Layer.provideMerge(ConversionServices)
)

export const LinkServices = Layer.mergeAll(LinkMatching.layer, LinkReresolver.layer, RedirectLinks.layer).pipe(
  Layer.provideMerge(Storage)
)
