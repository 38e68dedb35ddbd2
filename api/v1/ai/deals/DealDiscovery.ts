import { listValue } from "@duckdb/node-api"
import { Config, Context, Effect, Layer } from "effect"
import { clickGrowth } from "../../../../domain/deals/trending.ts"
import { dropPercent } from "../../../../domain/deals/priceDrop.ts"
import {
  type ConversionEstimate,
  conversionEstimate,
  earningsFormula,
  earningsPerClick,
  type EarningsFormula
} from "../../../../domain/deals/earnings.ts"
import type { Selection } from "../../../../domain/matching/selectProgram.ts"
import { Database, type DatabaseError } from "../../../../infra/Database.ts"
import { productDocument, type ProductDocument, type ProductRow } from "../../../../pipelines/search/documents.ts"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { MAX_LIMIT } from "./Api.ts"
import { makeStaleWhileRevalidate } from "./StaleWhileRevalidate.ts"
import {
  bind,
  conversionStatsSql,
  discountAtLeastSql,
  type Filters,
  highCommissionSql,
  priceDropsSql,
  productRowsSql,
  storesSql,
  trendingSql
} from "./dealQueries.ts"

// Deal discovery for partners' agents (GET /api/v1/ai/deals): three ranked
// lists computed in DuckDB, then the shown products read once (with their
// price facts) and turned into the discovery feed's documents, so a deal
// here looks exactly like one from /api/deals.

export type DealsRequest = Filters

/** Every list is computed at its longest; callers cut it to their limit. */
const LIST_SIZE = MAX_LIMIT

/** What the lists are computed against: the request's filters, one instant, the list size. */
interface ListsQuery extends DealsRequest {
  readonly now: Date
  readonly limit: number
}

export interface TrendingRanking {
  readonly score: number
  readonly clicks24h: number
  readonly clicksPrev24h: number
  readonly clicksWindow: number
  readonly growth: number | null
}

export interface PriceDropRanking {
  readonly current: number
  readonly low30d: number
  readonly median90d: number | null
  readonly dropVsMedianPercent: number | null
  readonly discountVsLow30dPercent: number
  readonly below30dLow: boolean
  readonly referenceKind: "full" | "partial"
  readonly observations30d: number
  readonly observations90d: number
  readonly historyDays: number
  readonly priceSince: Date
}

export interface CommissionRanking {
  readonly selection: Selection
  readonly conversion: ConversionEstimate
  /** The programme's currency for fixed commissions, when the catalog names one. */
  readonly commissionCurrency: string | null
  readonly price: number
  /** In the programme's currency for fixed commissions, else the product's. */
  readonly earningsPerClick: number
}

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

/** Candidates read beyond the limit, so a product whose own link resolves to another programme can be re-ranked. */
const COMMISSION_OVERFETCH = 2
/**
 * Seconds a computed set of lists counts as fresh (AI_DEALS_CACHE_SECONDS;
 * 0 computes every request). Trending decays over a 24-hour half-life and
 * prices change a few times a day, so 30 s changes nothing a shopper sees,
 * and it bounds the database work to one computation per filter set per
 * 30 s whatever the request rate. Older lists are still served, while they
 * are recomputed in the background, for up to STALE_SECONDS.
 */
const DEFAULT_CACHE_SECONDS = 30
const STALE_SECONDS = 600
const CACHE_CAPACITY = 256

const num = (value: unknown): number => Number(value)

interface TrendingRow {
  readonly id: string
  readonly score: number
  readonly clicks_24h: number
  readonly clicks_prev_24h: number
  readonly clicks_window: number
}

export class DealDiscovery extends Context.Service<DealDiscovery, {
  lists(request: DealsRequest): Effect.Effect<DealLists, DatabaseError>
}>()("app/api/v1/ai/DealDiscovery") {
  static readonly layer = Layer.effect(
    DealDiscovery,
    Effect.gen(function*() {
      const db = yield* Database
      const matcher = yield* ProgramMatcher
      const cacheSeconds = yield* Config.Int("AI_DEALS_CACHE_SECONDS").pipe(Config.withDefault(DEFAULT_CACHE_SECONDS))

      const query = <T>(sql: string, values: Record<string, Parameters<typeof bind>[1][string]>) => {
        const bound = bind(sql, values)
        return db.query<T>(bound.sql, bound.params)
      }

      const common = (request: ListsQuery) => ({
        now: request.now.toISOString(),
        category: request.category?.trim().toLowerCase() ?? "",
        min_discount: request.minDiscount,
        limit: request.limit
      })

      const discountAtLeast = (ids: ReadonlyArray<string>, minDiscount: number) =>
        query<{ id: string }>(discountAtLeastSql, { ids: listValue([...ids]), min_discount: minDiscount }).pipe(
          Effect.map((rows) => new Set(rows.map((row) => row.id)))
        )

      // A list filtered by discount ranks the products that may have it
      // (a cheap necessary condition in SQL), then confirms a batch at a time
      // with the exact rule, growing the batch, until it has `want` rows.
      const keepDiscounted = <T extends { readonly id: string }>(
        page: (offset: number, size: number) => Effect.Effect<ReadonlyArray<T>, DatabaseError>,
        want: number,
        minDiscount: number
      ) =>
        Effect.gen(function*() {
          if (minDiscount <= 0) return yield* page(0, want)
          const kept: Array<T> = []
          let offset = 0
          let size = Math.max(want * 4, 40)
          while (kept.length < want) {
            const rows = yield* page(offset, size)
            if (rows.length === 0) break
            const passing = yield* discountAtLeast(rows.map((row) => row.id), minDiscount)
            kept.push(...rows.filter((row) => passing.has(row.id)))
            if (rows.length < size) break
            offset += size
            size *= 4
          }
          return kept.slice(0, want)
        })

      const trending = (request: ListsQuery) =>
        keepDiscounted(
          (offset, size) =>
            query<TrendingRow>(trendingSql(request), { ...common(request), offset, limit: size }),
          request.limit,
          request.minDiscount
        ).pipe(
          Effect.map((rows) =>
            rows.map((row) => ({
              id: String(row.id),
              ranking: {
                score: num(row.score),
                clicks24h: num(row.clicks_24h),
                clicksPrev24h: num(row.clicks_prev_24h),
                clicksWindow: num(row.clicks_window),
                growth: clickGrowth(num(row.clicks_24h), num(row.clicks_prev_24h))
              } satisfies TrendingRanking
            }))
          )
        )

      const priceDrops = (request: ListsQuery) =>
        query<Record<string, unknown>>(priceDropsSql(request), common(request)).pipe(
          Effect.map((rows) =>
            rows.map((row) => {
              const current = num(row.current)
              const median = row.median_90d === null ? null : num(row.median_90d)
              const low = num(row.low_30d)
              return {
                id: String(row.id),
                ranking: {
                  current,
                  low30d: low,
                  median90d: median,
                  dropVsMedianPercent: dropPercent(current, median),
                  discountVsLow30dPercent: num(row.discount),
                  below30dLow: current < low,
                  referenceKind: row.reference_kind as "full" | "partial",
                  observations30d: num(row.observations_30d),
                  observations90d: num(row.observations_90d),
                  historyDays: Math.round(num(row.history_days) * 10) / 10,
                  priceSince: row.since as Date
                } satisfies PriceDropRanking
              }
            })
          )
        )

      // Product -> programme exactly as the redirect decides it on a feed
      // link's first click (ProgramMatcher.resolve of the product's link),
      // once per (store domain, store) for the ranking, then again per shown
      // product to confirm it.
      const resolveSelection = (link: string) =>
        Effect.map(matcher.resolve(link), (resolution) => resolution.kind === "resolved" ? resolution.selection : undefined)

      interface ProgramStats {
        readonly conversion: ConversionEstimate
        readonly commissionCurrency: string | null
      }
      const conversionStats = (now: string, programIds: ReadonlyArray<string>) =>
        programIds.length === 0
          ? Effect.succeed(new Map<string, ProgramStats>())
          : query<{ program_id: string; clicks: number; conversions: number; commission_currency: string | null }>(
            conversionStatsSql,
            { now, program_ids: listValue([...programIds]) }
          ).pipe(Effect.map((rows) =>
            new Map(rows.map((row) => [row.program_id, {
              conversion: conversionEstimate(num(row.clicks), num(row.conversions)),
              commissionCurrency: row.commission_currency ?? null
            }]))
          ))

      const formulaOf = (selection: Selection, conversion: ConversionEstimate): EarningsFormula =>
        earningsFormula(selection.program.commissionType, selection.program.commissionRate, conversion.rate)

      const highCommission = (request: ListsQuery) =>
        Effect.gen(function*() {
          const values = common(request)
          const stores = yield* query<{ store_domain: string; store: string; link: string }>(storesSql(request), values)
          const groups: Array<{ domain: string; store: string; selection: Selection }> = []
          for (const row of stores) {
            const selection = yield* resolveSelection(row.link)
            if (selection !== undefined) groups.push({ domain: row.store_domain, store: row.store, selection })
          }
          if (groups.length === 0) return []
          const estimates = yield* conversionStats(values.now, [...new Set(groups.map((group) => group.selection.program.id))])
          const statsOf = (programId: string): ProgramStats =>
            estimates.get(programId) ?? { conversion: conversionEstimate(0, 0), commissionCurrency: null }
          const formulas = groups.map((group) => formulaOf(group.selection, statsOf(group.selection.program.id).conversion))
          const rows = yield* keepDiscounted((offset, size) =>
            query<{ id: string; price: number; program_id: string; link: string }>(highCommissionSql(request), {
              ...values,
              offset,
              limit: size,
              store_domains: listValue(groups.map((group) => group.domain)),
              stores: listValue(groups.map((group) => group.store)),
              // As text: a JS list of numbers is bound as INTEGER[] when its first is whole.
              per_unit: listValue(formulas.map((formula) => String(formula.perPriceUnit))),
              fixed: listValue(formulas.map((formula) => String(formula.fixed))),
              formula_programs: listValue(groups.map((group) => group.selection.program.id))
            }), request.limit * COMMISSION_OVERFETCH, request.minDiscount)
          // Confirm each candidate's programme from its own link (a store
          // whose products link through a network's click host may span
          // several merchants); re-rank with what it really earns.
          const confirmed: Array<{ id: string; ranking: CommissionRanking }> = []
          for (const row of rows) {
            const selection = yield* resolveSelection(row.link)
            if (selection === undefined) continue
            const missing = estimates.has(selection.program.id) ? [] : [selection.program.id]
            for (const [id, estimate] of yield* conversionStats(values.now, missing)) estimates.set(id, estimate)
            const { conversion, commissionCurrency } = statsOf(selection.program.id)
            const price = num(row.price)
            confirmed.push({
              id: row.id,
              ranking: {
                selection,
                conversion,
                commissionCurrency,
                price,
                earningsPerClick: earningsPerClick(formulaOf(selection, conversion), price)
              }
            })
          }
          return confirmed
            .sort((a, b) => b.ranking.earningsPerClick - a.ranking.earningsPerClick || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
            .slice(0, request.limit)
        })

      const documents = (ids: ReadonlyArray<string>, now: Date) =>
        ids.length === 0
          ? Effect.succeed(new Map<string, ProductDocument>())
          : query<ProductRow>(productRowsSql, { ids: listValue([...ids]) }).pipe(
            Effect.map((rows) => new Map(rows.map((row) => [row.id, productDocument(row, now)])))
          )

      const attach = <R>(ranked: ReadonlyArray<{ id: string; ranking: R }>, docs: Map<string, ProductDocument>) =>
        ranked.flatMap(({ id, ranking }) => {
          const document = docs.get(id)
          return document === undefined ? [] : [{ document, ranking }]
        })

      const compute = (request: ListsQuery) =>
        Effect.gen(function*() {
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
      const fresh = (request: DealsRequest) => compute({ ...request, now: new Date(), limit: LIST_SIZE })
      const cache = yield* makeStaleWhileRevalidate({
        compute: (key) => fresh(JSON.parse(key) as DealsRequest),
        freshMs: cacheSeconds * 1000,
        staleMs: Math.max(cacheSeconds, STALE_SECONDS) * 1000,
        capacity: CACHE_CAPACITY
      })
      const keyOf = (request: DealsRequest) =>
        JSON.stringify({ category: request.category?.trim().toLowerCase(), minDiscount: request.minDiscount })

      return DealDiscovery.of({
        lists: (request) => cacheSeconds <= 0 ? fresh(request) : cache.get(keyOf(request))
      })
    })
  )
}
