import { Effect } from "effect"
import { AppConfig } from "../../../../infra/AppConfig.ts"
import type { Partner } from "../../../../partners/Partners.ts"
import { visitorMarket } from "../../../discovery/marketParams.ts"
import { HttpApiBuilder } from "effect/http-api"
import type { Candidate } from "../../../../domain/matching/fuzzy/fuzzyScore.ts"
import { MATCH_THRESHOLD } from "../../../../domain/matching/fuzzy/fuzzyScore.ts"
import type { Selection } from "../../../../domain/matching/selectProgram.ts"
import { Api } from "../../../Api.ts"
import { badRequest } from "../../../errors.ts"
import { CurrentPartner } from "../../auth/Api.ts"
import { orUnavailable } from "../../dbUnavailable.ts"
import { LinkMatching, noMatchMessages } from "../../../../links/LinkMatching.ts"
import type { TrackingLink } from "../../../../links/TrackingLinks.ts"
import type { MatchLinkReasons } from "./Api.ts"
import { type CandidateSource, FuzzyMatcher } from "../../../../ai/matchLink/FuzzyMatcher.ts"

type Reason = (typeof MatchLinkReasons)[number]

// The link service's messages, reworded where fuzzy matching changes their meaning.
const messages: Record<Reason, string> = {
  ...noMatchMessages,
  no_program: "no programme in the catalog covers this merchant, and no merchant is similar enough to guess",
  no_active_program:
    "we recognised the merchant, but every one of its programmes (or their networks) is paused or closed",
  deep_link_unavailable:
    "we recognised the merchant and it has an active programme, but its network gives us no way to build a link to this page",
  below_threshold: `the most similar merchant scored below the ${MATCH_THRESHOLD} confidence threshold, so we do not guess`,
  known_site:
    "this site is in the catalog only through another of its hosts (e.g. a store subdomain); we do not guess a different page"
}

const round = (value: number) => Math.round(Math.max(0, Math.min(1, value)) * 100) / 100

interface Fuzzy {
  readonly candidate: Candidate
  readonly domain: string | null
  readonly countryMatched: boolean
  readonly source: CandidateSource
}

const recognised = (fuzzy: Fuzzy | undefined) =>
  fuzzy === undefined
    ? null
    : {
        brand: fuzzy.candidate.brand.name,
        from: fuzzy.candidate.evidence.from,
        kind: fuzzy.candidate.evidence.kind,
        text: fuzzy.candidate.evidence.text,
        domain: fuzzy.domain,
        country_matched: fuzzy.countryMatched
      }

const notMatched = (
  originalUrl: string,
  reason: Reason,
  confidence: number,
  fuzzy?: Fuzzy,
  source?: CandidateSource
) => ({
  matched: false,
  program: null,
  program_id: null,
  program_number: null,
  network: null,
  network_name: null,
  affiliate_url: null,
  tracking_url: null,
  tracking_id: null,
  destination_url: null,
  original_url: originalUrl,
  method: null,
  confidence: round(confidence),
  created: null,
  reason,
  message: messages[reason],
  recognised: recognised(fuzzy),
  candidate_source: source ?? fuzzy?.source ?? null
})

const matched = (
  originalUrl: string,
  method: "domain" | "fuzzy",
  confidence: number,
  selection: Selection,
  made: { readonly link: TrackingLink; readonly created: boolean },
  fuzzy?: Fuzzy
) => ({
  matched: true,
  program: selection.program.name,
  program_id: selection.program.id,
  program_number: selection.program.number ?? null,
  network: selection.network.id,
  network_name: selection.network.name,
  affiliate_url: made.link.affiliateUrl,
  tracking_url: `/t/${made.link.id}`,
  tracking_id: made.link.id,
  destination_url: made.link.destinationUrl,
  original_url: originalUrl,
  method,
  confidence: round(confidence),
  created: made.created,
  reason: null,
  message: null,
  recognised: recognised(fuzzy),
  candidate_source: fuzzy?.source ?? null
})

export const AiMatchLinkHandlers = HttpApiBuilder.group(
  Api,
  "aiMatchLink",
  Effect.fn(function* (handlers) {
    const matching = yield* LinkMatching
    const fuzzyMatcher = yield* FuzzyMatcher
    const { defaultCountry } = yield* AppConfig
    const matchLink = (partner: Partner, original: string, country: string | undefined) =>
      Effect.gen(function* () {
        // 1. Domain matching, exactly as POST /api/v1/links/match.
        const domain = yield* orUnavailable(matching.match(partner, original, country))
        if (domain.kind === "invalid") return yield* badRequest("url", domain.message)
        const done = <A>(answer: A) => ({ body: answer, market: domain.market })
        if (domain.kind === "matched") return done(matched(original, "domain", 1, domain.selection, domain))
        // A recognised merchant without a usable programme, or a tracking link we could not
        // follow: guessing another merchant would be wrong, so the domain answer stands.
        if (domain.reason !== "no_program") return done(notMatched(original, domain.reason, 0))

        // 2. Fuzzy matching on the unwrapped URL without tracking parameters.
        const { choice, outcome, source } = yield* fuzzyMatcher.match(new URL(domain.normalizedUrl))
        if (outcome.kind === "none") return done(notMatched(original, "no_program", 0, undefined, source))
        if (outcome.kind === "known_site") return done(notMatched(original, "known_site", 0, undefined, source))
        const candidate = outcome.best
        const picked = choice?.ok === true ? choice : undefined
        const fuzzy: Fuzzy = {
          candidate,
          domain: picked?.selection.domain ?? null,
          countryMatched: picked?.countryMatched ?? false,
          source
        }
        if (candidate.confidence < MATCH_THRESHOLD)
          return done(notMatched(original, "below_threshold", candidate.confidence, fuzzy))
        if (picked === undefined) {
          return done(
            notMatched(
              original,
              choice?.ok === false ? choice.reason : "no_active_program",
              candidate.confidence,
              fuzzy
            )
          )
        }

        // 3. The calling partner's link to the merchant's real domain (see chooseProgram.ts for the destination rule).
        const made = yield* orUnavailable(
          matching.linkFor({
            partner,
            originalUrl: original,
            destinationUrl: picked.destination,
            selection: picked.selection
          })
        )
        if (made === undefined) return done(notMatched(original, "deep_link_unavailable", candidate.confidence, fuzzy))
        return done(matched(original, "fuzzy", candidate.confidence, picked.selection, made, fuzzy))
      })

    return handlers.handle("matchLink", ({ payload, request }) =>
      Effect.gen(function* () {
        const partner = yield* CurrentPartner
        const visitor = visitorMarket(payload.country, request.headers["accept-language"], defaultCountry)
        const answer = yield* matchLink(partner, payload.url, visitor?.market.country)
        // the market domain matching preferred (the URL's, else the visitor's), as POST /api/v1/links/match says it
        const market = answer.market
        return {
          ...answer.body,
          market:
            market === undefined
              ? null
              : {
                  country: market.country,
                  source: market.source === "url" ? ("url" as const) : (visitor?.source ?? "parameter")
                }
        }
      })
    )
  })
)
