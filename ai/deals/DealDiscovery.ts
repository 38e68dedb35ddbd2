import { Clock, Context, Effect, Layer } from "effect"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Database, type DatabaseError } from "../../infra/Database.ts"
import { productDocument, type ProductDocument, type ProductRow } from "../../readModel/documents.ts"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { type Filters, productRowsSql } from "./dealQueries.ts"
import { type CommissionRanking, highCommissionList } from "./highCommissionList.ts"
import { type ListsQuery, makeListReader } from "./ListReader.ts"
import { type PriceDropRanking, priceDropList } from "./priceDropList.ts"
import { MAX_LIMIT } from "./limits.ts"
import { makeStaleWhileRevalidate } from "./StaleWhileRevalidate.ts"
import { type TrendingRanking, trendingList } from "./trendingList.ts"

export type { CommissionRanking, PriceDropRanking, TrendingRanking }

// Deal discovery for partners' agents (GET /api/v1/ai/deals): three ranked
// lists computed in the store (DuckDB or PostgreSQL), then the shown products read once (with their
// price facts) and turned into the discovery feed's documents, so a deal
// here looks exactly like one from /api/deals.

export type DealsRequest = Filters

/** Every list is computed at its longest; callers cut it to their limit. */
const LIST_SIZE = MAX_LIMIT

export interface Ranked<R> {
  readonly document: ProductDocument
  readonly ranking: R
}

export interface DealLists {
  /** When the lists were computed (they are cached for AI_DEALS_CACHE_SECONDS). */
  readonly generatedAt: Date
  readonly trending: ReadonlyArray<Ranked<TrendingRanking>>
  readonly priceDrops: ReadonlyArray<Ranked<PriceDropRanking>>
  readonly highCommission: ReadonlyArray<Ranked<CommissionRanking>>
}

/**
 * Seconds a computed set of lists counts as fresh (AI_DEALS_CACHE_SECONDS,
 * AppConfig.aiDealsCacheSeconds, default 30; 0 computes every request). Trending decays over a 24-hour half-life and
 * prices change a few times a day, so 30 s changes nothing a shopper sees,
 * and it bounds the database work to one computation per filter set per
 * 30 s whatever the request rate. Older lists are still served, while they
 * are recomputed in the background, for up to STALE_SECONDS.
 */
const STALE_SECONDS = 600
const CACHE_CAPACITY = 256

export class DealDiscovery extends Context.Service<
  DealDiscovery,
  {
    lists(request: DealsRequest): Effect.Effect<DealLists, DatabaseError>
  }
>()("app/ai/deals/DealDiscovery") {
  static readonly layer = Layer.effect(
    DealDiscovery,
    Effect.gen(function* () {
      const db = yield* Database
      const matcher = yield* ProgramMatcher
      const cacheSeconds = (yield* AppConfig).aiDealsCacheSeconds

      const reader = makeListReader(db)
      const trending = trendingList(reader)
      const priceDrops = priceDropList(reader)
      const highCommission = highCommissionList(reader, matcher)

      const documents = (ids: ReadonlyArray<string>, now: Date) =>
        ids.length === 0
          ? Effect.succeed(new Map<string, ProductDocument>())
          : reader
              .rows<ProductRow>(productRowsSql(db), { ids: JSON.stringify(ids) })
              .pipe(Effect.map((rows) => new Map(rows.map((row) => [row.id, productDocument(row, now)]))))

      // One offer per product, as in /api/deals: the same mower listed three
      // times (variants, or several stores) is one entry, its best-ranked offer.
      const attach = <R>(ranked: ReadonlyArray<{ id: string; ranking: R }>, docs: Map<string, ProductDocument>) => {
        const seen = new Set<string>()
        return ranked.flatMap(({ id, ranking }) => {
          const document = docs.get(id)
          if (document === undefined) return []
          if (seen.has(document.group_key)) return []
          seen.add(document.group_key)
          return [{ document, ranking }]
        })
      }

      const compute = (request: ListsQuery) =>
        Effect.gen(function* () {
          const [hot, drops, earners] = yield* Effect.all(
            [trending(request), priceDrops(request), highCommission(request)],
            { concurrency: 3 }
          )
          const ids = new Set([...hot, ...drops, ...earners].map((item) => item.id))
          const docs = yield* documents([...ids], request.now)
          return {
            generatedAt: request.now,
            trending: attach(hot, docs),
            priceDrops: attach(drops, docs),
            highCommission: attach(earners, docs)
          } satisfies DealLists
        })

      // The lists depend on neither the caller (links and shares are added
      // at the edge) nor the limit (computed at LIST_SIZE, cut by the caller),
      // so one computation per category and minimum discount serves everyone.
      const fresh = (request: DealsRequest) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => compute({ ...request, now: new Date(now), limit: LIST_SIZE }))
      const cache = yield* makeStaleWhileRevalidate({
        compute: (key) => fresh(JSON.parse(key) as DealsRequest),
        freshMs: cacheSeconds * 1000,
        staleMs: Math.max(cacheSeconds, STALE_SECONDS) * 1000,
        capacity: CACHE_CAPACITY
      })
      const keyOf = (request: DealsRequest) =>
        JSON.stringify({
          category: request.category?.trim().toLowerCase(),
          minDiscount: request.minDiscount,
          currency: request.currency,
          country: request.country
        })

      return DealDiscovery.of({
        lists: (request) => (cacheSeconds <= 0 ? fresh(request) : cache.get(keyOf(request)))
      })
    })
  )
}
