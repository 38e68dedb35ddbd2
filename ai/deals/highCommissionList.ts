import { Effect, Schema } from "effect"
import {
  type ConversionEstimate,
  conversionEstimate,
  earningsFormula,
  earningsPerClick,
  type EarningsFormula
} from "../../domain/deals/earnings.ts"
import type { Selection } from "../../domain/matching/selectProgram.ts"
import type { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { conversionStatsSql, highCommissionSql, storesSql } from "./dealQueries.ts"
import { Numeric, NullableText, Text } from "../../infra/columns.ts"
import { jsonRowsParam } from "../../infra/Database.ts"
import { type ListReader, type ListsQuery } from "./ListReader.ts"

const StatsRow = Schema.Struct({
  program_id: Text,
  clicks: Numeric,
  conversions: Numeric,
  commission_currency: NullableText
})
const StoreRow = Schema.Struct({ store_domain: Text, store: Text, link: Text })
const CandidateRow = Schema.Struct({ id: Text, price: Numeric, program_id: Text, link: Text })

// High commission: expected earnings per click (domain/deals/earnings.ts).
// Each store's programme is resolved once, its earnings formula goes to
// DuckDB as two numbers, and DuckDB ranks the products.

export interface CommissionRanking {
  readonly selection: Selection
  readonly conversion: ConversionEstimate
  /** The programme's currency for fixed commissions, when the catalog names one. */
  readonly commissionCurrency: string | null
  readonly price: number
  /** In the programme's currency for fixed commissions, else the product's. */
  readonly earningsPerClick: number
}

/** Candidates read beyond the limit, so a product whose own link resolves to another programme can be re-ranked. */
const COMMISSION_OVERFETCH = 2

export const highCommissionList = (reader: ListReader, matcher: ProgramMatcher["Service"]) => {
  // Product -> programme exactly as the redirect decides it on a feed
  // link's first click (ProgramMatcher.resolve of the product's link),
  // once per (store domain, store) for the ranking, then again per shown
  // product to confirm it.
  const resolveSelection = (link: string) =>
    Effect.map(matcher.resolve(link), (resolution) =>
      resolution.kind === "resolved" ? resolution.selection : undefined
    )

  interface ProgramStats {
    readonly conversion: ConversionEstimate
    readonly commissionCurrency: string | null
  }
  const conversionStats = (now: string, programIds: ReadonlyArray<string>) =>
    programIds.length === 0
      ? Effect.succeed(new Map<string, ProgramStats>())
      : reader.query(StatsRow, conversionStatsSql(reader.db), { now, program_ids: JSON.stringify(programIds) }).pipe(
          Effect.map(
            (rows) =>
              new Map(
                rows.map((row) => [
                  row.program_id,
                  {
                    conversion: conversionEstimate(row.clicks, row.conversions),
                    commissionCurrency: row.commission_currency
                  }
                ])
              )
          )
        )

  const formulaOf = (selection: Selection, conversion: ConversionEstimate): EarningsFormula =>
    earningsFormula(selection.program.commissionType, selection.program.commissionRate, conversion.rate)

  return (request: ListsQuery) =>
    Effect.gen(function* () {
      const values = reader.common(request)
      const stores = yield* reader.query(StoreRow, storesSql(reader.db, request), values)
      const groups: Array<{ domain: string; store: string; selection: Selection }> = []
      for (const row of stores) {
        const selection = yield* resolveSelection(row.link)
        if (selection !== undefined) groups.push({ domain: row.store_domain, store: row.store, selection })
      }
      if (groups.length === 0) return []
      const estimates = yield* conversionStats(values.now, [
        ...new Set(groups.map((group) => group.selection.program.id))
      ])
      const statsOf = (programId: string): ProgramStats =>
        estimates.get(programId) ?? { conversion: conversionEstimate(0, 0), commissionCurrency: null }
      const formulas = groups.map((group) => formulaOf(group.selection, statsOf(group.selection.program.id).conversion))
      const rows = yield* reader.keepDiscounted(
        (offset, size) =>
          reader.query(CandidateRow, highCommissionSql(reader.db, request), {
            ...values,
            offset,
            limit: size,
            formulas: jsonRowsParam(
              groups.map((group, i) => ({
                store_domain: group.domain,
                store: group.store,
                per_unit: formulas[i].perPriceUnit,
                fixed: formulas[i].fixed,
                program_id: group.selection.program.id
              }))
            )
          }),
        request.limit * COMMISSION_OVERFETCH,
        request.minDiscount
      )
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
        const price = row.price
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
        .sort(
          (a, b) => b.ranking.earningsPerClick - a.ranking.earningsPerClick || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
        )
        .slice(0, request.limit)
    })
}
