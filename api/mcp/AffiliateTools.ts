import { Effect } from "effect"
import { PublicUrl } from "../../infra/PublicUrl.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { marketNote } from "../../domain/markets/markets.ts"
import { requestMarket, visitorMarket } from "../discovery/marketParams.ts"
import { DiscoverySearch } from "../../discovery/DiscoverySearch.ts"
import { badRequest } from "../errors.ts"
import { CatalogQueries } from "../../catalog/CatalogQueries.ts"
import { orUnavailable } from "../v1/dbUnavailable.ts"
import { pageOf, pageRequest } from "../v1/ListParams.ts"
import { LinkMatching } from "../../links/LinkMatching.ts"
import { matchAnswer } from "../../links/matchAnswer.ts"
import { PartnerStatsQuery } from "../../partners/PartnerStatsQuery.ts"
import { searchUnavailable } from "./CatalogTools.ts"
import { dealsAnswer } from "./dealsAnswer.ts"
import { callerTag, requirePartner } from "./McpCaller.ts"
import { asToolFailure, decodeArguments, invalidArgument } from "./toolErrors.ts"
import { FindProgramsParams, ListDealsParams, MatchLinkParams, PartnerStatsParams } from "./toolDefinitions.ts"

// Our own tools beside the UCP catalog: each one calls the service behind the
// matching JSON endpoint and answers with that endpoint's body shape, except
// list_deals, which speaks the catalog tools' units and casing (dealsAnswer.ts).

const DEFAULT_LIMIT = 10

export const makeAffiliateTools = Effect.gen(function* () {
  const discovery = yield* DiscoverySearch
  const matching = yield* LinkMatching
  const stats = yield* PartnerStatsQuery
  const catalog = yield* CatalogQueries
  const publicUrl = yield* PublicUrl
  const { defaultCountry } = yield* AppConfig
  const storage = <A, R>(effect: Effect.Effect<A, { readonly _tag: "DatabaseError" }, R>) =>
    orUnavailable(effect).pipe(Effect.mapError(asToolFailure))

  const listDeals = (input: unknown) =>
    Effect.gen(function* () {
      const query = yield* decodeArguments(ListDealsParams)(input)
      const tag = yield* callerTag
      const { chosen, currency, country } = requestMarket({ country: query.country }, defaultCountry)
      const { documents } = yield* discovery
        .deals({ category: query.category, store: query.store, limit: query.limit ?? DEFAULT_LIMIT, currency, country })
        .pipe(Effect.mapError(searchUnavailable))
      return {
        ...dealsAnswer(documents, { base: publicUrl.base, tag }),
        market: marketNote(
          chosen,
          documents.map((doc) => doc.currency),
          { countries: documents.flatMap((doc) => doc.countries) }
        )
      }
    })

  const matchLink = (input: unknown) =>
    Effect.gen(function* () {
      const { url, country } = yield* decodeArguments(MatchLinkParams)(input)
      const partner = yield* requirePartner
      // no Accept-Language over MCP: the agent's header is its own, not its shopper's
      const visitor = visitorMarket(country, undefined, defaultCountry)
      const result = yield* storage(matching.match(partner, url, visitor?.market.country))
      // the same 400 body POST /api/v1/links/match answers
      if (result.kind === "invalid") return yield* Effect.fail(asToolFailure(badRequest("url", result.message)))
      return matchAnswer(publicUrl, url, result, visitor?.source)
    })

  const findPrograms = (input: unknown) =>
    Effect.gen(function* () {
      const query = yield* decodeArguments(FindProgramsParams)(input)
      if (query.domain === undefined && query.keyword === undefined) {
        return yield* Effect.fail(invalidArgument("domain", "give a domain, a keyword, or both"))
      }
      const page = pageRequest({ limit: query.limit ?? DEFAULT_LIMIT })
      const { rows, total } = yield* storage(catalog.programs({ domain: query.domain, q: query.keyword }, page))
      return pageOf(rows, page, total)
    })

  const partnerStats = (input: unknown) =>
    Effect.gen(function* () {
      yield* decodeArguments(PartnerStatsParams)(input)
      const partner = yield* requirePartner
      return yield* storage(stats.forPartner(partner))
    })

  return { listDeals, matchLink, findPrograms, partnerStats }
})
