import { Effect, Schema } from "effect"
import { feedTrackingId, parseFeedTrackingId } from "../domain/links/feedTrackingId.ts"
import { DEFAULT_FEED_TAG, isReservedTag, isServiceFeedTag } from "../domain/links/serviceTags.ts"
import { affiliateUrlFor } from "../domain/matching/resolve.ts"
import { isSafeRedirectTarget } from "../domain/matching/submittedUrl.ts"
import { Integer, Text } from "../infra/columns.ts"
import type { Database } from "../infra/Database.ts"
import type { ProgramMatcher } from "./ProgramMatcher.ts"
import type { TrackingLinks } from "./TrackingLinks.ts"
import type { RedirectTarget } from "./LinkCache.ts"

const ProductLink = Schema.Struct({ link: Text })
const PartnerId = Schema.Struct({ id: Integer })
const StoredFeedLink = Schema.Struct({ id: Text, affiliate_url: Text })

type Deps = { db: Database["Service"]; matcher: ProgramMatcher["Service"]; links: TrackingLinks["Service"] }

/**
 * Whom a feed link's tag attributes to. A partner's tag: that partner. One
 * of the service's feed tags (`api`, `ai-search`, `web`, `mcp`): nobody, and
 * never a partner, whatever the partners table says. Any other tag (made up,
 * mistyped, or a reserved one such as `anon`): the default tag, so a flood of
 * junk tags writes no row per tag and credits nobody.
 */
const attribution = (db: Database["Service"], tag: string) =>
  Effect.gen(function* () {
    if (isServiceFeedTag(tag)) return { partnerId: null, tag: tag.toLowerCase() }
    if (!isReservedTag(tag)) {
      const partners = yield* db.queryAs(PartnerId, "SELECT id FROM partners WHERE tag = $1", [tag])
      if (partners.length > 0) return { partnerId: partners[0].id, tag }
    }
    return { partnerId: null, tag: DEFAULT_FEED_TAG }
  })

// Discovery-feed ids (`f.{base64url(productId)}.{tag}`) are derived, not
// stored. On the first click (a GET) we find the product, match its page to a
// programme and get-or-create ONE stored link (source 'feed') whose short id
// travels to the network as the click reference. Without a programme the
// shopper still lands on the product page and the click is still recorded
// (under the feed id of its attributed tag, since there is no stored link).
// `create: false` (HEAD, which is not a click) writes nothing: it answers with
// the stored link if a GET made it already, else with the product page.
export const resolveFeedLink = (id: string, deps: Deps, options: { readonly create: boolean } = { create: true }) =>
  Effect.gen(function* () {
    const parsed = parseFeedTrackingId(id)
    if (parsed === undefined) return undefined
    const products = yield* deps.db.queryAs(ProductLink, "SELECT link FROM products WHERE id = $1", [parsed.productId])
    const productLink = products[0]?.link
    if (productLink === undefined || !isSafeRedirectTarget(productLink)) return undefined
    const { partnerId, tag } = yield* attribution(deps.db, parsed.tag)
    const resolution = yield* deps.matcher.resolve(productLink)
    const direct: RedirectTarget = {
      location: productLink,
      trackingId: feedTrackingId(parsed.productId, tag),
      partnerId,
      tag
    }
    if (resolution.kind !== "resolved" || resolution.selection === undefined) return direct
    const selection = resolution.selection
    const build = (trackingId: string) => affiliateUrlFor(selection, resolution.normalizedUrl, trackingId)
    const probe = build("probe")
    if (probe === undefined || !isSafeRedirectTarget(probe)) return direct
    if (!options.create) {
      const stored = yield* deps.db.queryAs(
        StoredFeedLink,
        `SELECT id, affiliate_url FROM tracking_links
         WHERE COALESCE(partner_id, 0) = $1 AND tag = $2 AND normalized_url = $3 AND market IS NULL`,
        [partnerId ?? 0, tag, resolution.normalizedUrl]
      )
      const found = stored[0]
      if (found === undefined || !isSafeRedirectTarget(found.affiliate_url)) return direct
      return { location: found.affiliate_url, trackingId: found.id, partnerId, tag } satisfies RedirectTarget
    }
    const { link } = yield* deps.links.getOrCreate({
      partnerId,
      tag,
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
    return { location: link.affiliateUrl, trackingId: link.id, partnerId, tag } satisfies RedirectTarget
  })
