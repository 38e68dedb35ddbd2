import { Effect, Schema } from "effect"
import { parseFeedTrackingId } from "../domain/links/feedTrackingId.ts"
import { affiliateUrlFor } from "../domain/matching/resolve.ts"
import { isSafeRedirectTarget } from "../domain/matching/submittedUrl.ts"
import { Integer, Text } from "../infra/columns.ts"
import type { Database } from "../infra/Database.ts"
import type { ProgramMatcher } from "./ProgramMatcher.ts"
import type { TrackingLinks } from "./TrackingLinks.ts"
import type { RedirectTarget } from "./LinkCache.ts"

const ProductLink = Schema.Struct({ link: Text })
const PartnerId = Schema.Struct({ id: Integer })

// Discovery-feed ids (`f.{base64url(productId)}.{tag}`) are derived, not
// stored. On the first click we find the product, match its page to a
// programme and get-or-create ONE stored link (source 'feed') whose short id
// travels to the network as the click reference. Without a programme the
// shopper still lands on the product page and the click is still recorded
// (under the feed id, since there is no stored link).
export const resolveFeedLink = (
  id: string,
  deps: { db: Database["Service"]; matcher: ProgramMatcher["Service"]; links: TrackingLinks["Service"] }
) =>
  Effect.gen(function* () {
    const parsed = parseFeedTrackingId(id)
    if (parsed === undefined) return undefined
    const products = yield* deps.db.queryAs(ProductLink, "SELECT link FROM products WHERE id = $1", [parsed.productId])
    const productLink = products[0]?.link
    if (productLink === undefined || !isSafeRedirectTarget(productLink)) return undefined
    const partners = yield* deps.db.queryAs(PartnerId, "SELECT id FROM partners WHERE tag = $1", [parsed.tag])
    const partnerId = partners.length > 0 ? partners[0].id : null
    const resolution = yield* deps.matcher.resolve(productLink)
    const direct: RedirectTarget = { location: productLink, trackingId: id, partnerId, tag: parsed.tag }
    if (resolution.kind !== "resolved" || resolution.selection === undefined) return direct
    const selection = resolution.selection
    const build = (trackingId: string) => affiliateUrlFor(selection, resolution.normalizedUrl, trackingId)
    const probe = build("probe")
    if (probe === undefined || !isSafeRedirectTarget(probe)) return direct
    const { link } = yield* deps.links.getOrCreate({
      partnerId,
      tag: parsed.tag,
      originalUrl: productLink,
      normalizedUrl: resolution.normalizedUrl,
      destinationUrl: resolution.normalizedUrl,
      programId: selection.program.id,
      networkId: selection.network.id,
      productId: parsed.productId,
      source: "feed",
      affiliateUrlFor: (trackingId) => build(trackingId)!
    })
    if (!isSafeRedirectTarget(link.affiliateUrl)) return direct
    return { location: link.affiliateUrl, trackingId: link.id, partnerId, tag: parsed.tag } satisfies RedirectTarget
  })
