import { Layer } from "effect"
import { CatalogChanges } from "./CatalogChanges.ts"
import { LinkChangeVersion, OwnLinkChanges } from "./LinkChangeVersion.ts"
import { LinkMatching } from "./LinkMatching.ts"
import { LinkReresolver } from "./LinkReresolver.ts"
import { ProgramMatcher } from "./ProgramMatcher.ts"
import { RedirectLinks } from "./RedirectLinks.ts"
import { TrackingLinks } from "./TrackingLinks.ts"
import { LinkSettings } from "./LinkSettings.ts"

export { ReresolveAfterCatalogLoads as afterCatalogLoads } from "./ReresolveAfterCatalogLoads.ts"
/** Follows catalog and link changes committed by another process (API roles): the one poller. */
export const catalogChanges = CatalogChanges.layer

/**
 * The link service's storage-backed services, shared by /api/v1, the redirect
 * and the AI tools. Needs partners (LinkMatching) and the event streams
 * (CatalogEvents to follow, LinkEvents to announce new links).
 */
export const layer = Layer.mergeAll(LinkMatching.layer, LinkReresolver.layer, RedirectLinks.layer).pipe(
  Layer.provideMerge(Layer.mergeAll(ProgramMatcher.layer, TrackingLinks.layer, LinkSettings.layer)),
  Layer.provideMerge(OwnLinkChanges.layer)
)

/** Links moved in a store one process owns: its in-process listeners hear of it, nothing to announce. */
export const singleProcess = LinkChangeVersion.layerSingleProcess
/** Links moved in a store replicas share: announced through the shared link-change version. */
export const replicas = LinkChangeVersion.layerReplicas
