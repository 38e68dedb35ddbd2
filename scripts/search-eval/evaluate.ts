import { catalogIdOf } from "../../readModel/documents.ts"
import type { CatalogRow } from "./catalog.ts"
import { meets, satisfyingGroups, type Judgement } from "./judgement.ts"

// Scores a search over the judged set. A result counts as relevant when its
// catalog row meets the query's constraints; a must-appear product is worth
// twice as much (graded nDCG). Results are mapped back to catalog rows by
// their id (the index document id), so nothing is judged by its title.

export const PAGE = 8

export interface QueryOutcome {
  readonly judgement: Judgement
  /** Catalog ids of the results, in order. */
  readonly results: ReadonlyArray<string>
  readonly relevant: number
  readonly foundMustAppear: number
  readonly ndcg: number
}

export interface Scores {
  readonly queries: number
  readonly satisfiable: number
  /** Share of satisfiable queries answered with nothing. */
  readonly zeroResultRate: number
  /** Share of all results shown (first 8 per query) that meet their query's constraints. */
  readonly precisionAt8: number
  /** Share of must-appear products found among the first 8. */
  readonly recall: number
  readonly ndcgAt8: number
  readonly outcomes: ReadonlyArray<QueryOutcome>
}

const dcg = (gains: ReadonlyArray<number>) => gains.reduce((sum, gain, i) => sum + gain / Math.log2(i + 2), 0)

/** `search` returns the ids of the results (index document ids) for a phrase. */
export const evaluate = async (
  judgements: ReadonlyArray<Judgement>,
  rows: ReadonlyArray<CatalogRow>,
  search: (q: string) => Promise<ReadonlyArray<string>>
): Promise<Scores> => {
  const byId = new Map(rows.map((row) => [row.id, row]))
  const outcomes: Array<QueryOutcome> = []
  for (const judgement of judgements) {
    const results = (await search(judgement.q)).slice(0, PAGE).map((id) => catalogIdOf(id) ?? id)
    const must = new Set(judgement.mustAppear)
    const gains = results.map((id) => {
      const row = byId.get(id)
      if (row === undefined || !meets(row, judgement.constraints)) return 0
      return must.has(row.group) ? 2 : 1
    })
    const found = new Set(
      results.map((id) => byId.get(id)?.group).filter((group) => group !== undefined && must.has(group))
    )
    // The ideal page: every must-appear product, then other products that meet the constraints.
    const available = satisfyingGroups(rows, judgement.constraints).size
    const ideal = [
      ...Array(Math.min(must.size, PAGE)).fill(2),
      ...Array(Math.max(0, Math.min(available, PAGE) - must.size)).fill(1)
    ]
    outcomes.push({
      judgement,
      results,
      relevant: gains.filter((gain) => gain > 0).length,
      foundMustAppear: found.size,
      // An unmeetable query is ideally answered with nothing.
      ndcg: ideal.length === 0 ? (results.length === 0 ? 1 : 0) : dcg(gains) / dcg(ideal)
    })
  }
  const satisfiable = outcomes.filter((o) => satisfyingGroups(rows, o.judgement.constraints).size > 0)
  const shown = outcomes.reduce((sum, o) => sum + o.results.length, 0)
  const must = outcomes.reduce((sum, o) => sum + o.judgement.mustAppear.length, 0)
  return {
    queries: outcomes.length,
    satisfiable: satisfiable.length,
    zeroResultRate: satisfiable.filter((o) => o.results.length === 0).length / Math.max(1, satisfiable.length),
    precisionAt8: outcomes.reduce((sum, o) => sum + o.relevant, 0) / Math.max(1, shown),
    recall: outcomes.reduce((sum, o) => sum + o.foundMustAppear, 0) / Math.max(1, must),
    ndcgAt8: outcomes.reduce((sum, o) => sum + o.ndcg, 0) / Math.max(1, outcomes.length),
    outcomes
  }
}

/** The scores as the lines `npm run eval:search` prints. */
export const formatScores = (scores: Scores): string =>
  [
    `judged queries:        ${scores.queries} (${scores.satisfiable} that some product can satisfy)`,
    `zero-result rate:      ${(scores.zeroResultRate * 100).toFixed(1)}% (target <= 1%)`,
    `constraint precision@8: ${scores.precisionAt8.toFixed(3)} (target >= 0.95)`,
    `must-appear recall:    ${scores.recall.toFixed(3)}`,
    `nDCG@8:                ${scores.ndcgAt8.toFixed(3)} (target >= 0.85)`
  ].join("\n")
