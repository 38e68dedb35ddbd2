import { landingPageFor } from "../domain/matching/resolve.ts"
import type { PublicUrl } from "../infra/PublicUrl.ts"
import { type LinkMatch, noMatchMessages } from "./LinkMatching.ts"

/**
 * The answer to a match request, as POST /api/v1/links/match sends it and the
 * MCP tool match_link returns it (an invalid URL is the caller's 400 / tool error).
 */
export const matchAnswer = (
  publicUrl: PublicUrl["Service"],
  originalUrl: string,
  result: Exclude<LinkMatch, { readonly kind: "invalid" }>
) => {
  if (result.kind === "unmatched") {
    return {
      matched: false as const,
      reason: result.reason,
      message: noMatchMessages[result.reason],
      original_url: originalUrl,
      destination_url: result.normalizedUrl,
      program: null,
      link: null
    }
  }
  const { created, link, selection } = result
  return {
    matched: true as const,
    program: {
      id: selection.program.id,
      number: selection.program.number ?? null,
      name: selection.program.name,
      network: selection.network.id,
      domain: selection.domain,
      commission_type: selection.program.commissionType
    },
    link: {
      tracking_id: link.id,
      tracking_url: publicUrl.to(`/t/${link.id}`),
      affiliate_url: link.affiliateUrl,
      original_url: originalUrl,
      destination_url: link.destinationUrl,
      deep_link: selection.program.deepLinkAllowed,
      lands_on: landingPageFor(selection, link.destinationUrl)
    },
    created
  }
}
