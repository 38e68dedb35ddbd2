import { comparablePrice, type ExchangeRates } from "../../domain/money/exchangeRates.ts"
import { catalogIdOf } from "../../readModel/documents.ts"
import type { CatalogRow } from "./catalog.ts"
import { withoutPriceBound } from "./derivePeople.ts"
import { isOppositeGender, meets, satisfyingGroups, wordsOf, type Judgement } from "./judgement.ts"

// Scores a search over the judged set. A result counts as relevant when its
// catalog row meets the query's constraints; a must-appear product is worth
// twice as much (graded nDCG). Results are mapped back to catalog rows by
// their id (the index document id), so nothing is judged by its title.

export const PAGE = 8

/** What a judged search answered: its results' ids and, when empty, its suggestions. */
export interface SearchAnswer {
  readonly ids: ReadonlyArray<string>
  readonly suggestions?: ReadonlyArray<{
    readonly kind: string
    readonly title?: string
    readonly price?: { readonly amount: number; readonly currency: string }
  }>
}

export interface QueryOutcome {
  readonly judgement: Judgement
  /** Catalog ids of the results, in order. */
  readonly results: ReadonlyArray<string>
  readonly relevant: number
  readonly foundMustAppear: number
  readonly ndcg: number
  /** Results made for the other gender than the phrase asked for. */
  readonly oppositeGender: number
  /** checks.cheapestFirst: whether the answer was cheapest first (undefined when not checked or empty). */
  readonly cheapestFirst?: boolean
  /** checks.suggestions: cheapest-match suggestions given, and how many of them were true. */
  readonly suggestions?: { readonly given: number; readonly true: number }
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
  /** Results of the other gender, summed over the queries with a gender or recipient constraint. */
  readonly oppositeGender: number
  readonly genderQueries: number
  /** Share of price-word queries answered cheapest first (1 when there are none). */
  readonly cheapestFirstRate: number
  readonly cheapestQueries: number
  /** Share of empty answers' cheapest-match suggestions that were true, and the empty answers without any. */
  readonly suggestionTruth: number
  readonly suggestionQueries: number
  readonly withoutSuggestions: number
  readonly outcomes: ReadonlyArray<QueryOutcome>
}

/**
 * Cheapest first. The judged phrases name no market, so with reference
 * rates loaded the service orders every price converted into EUR: the
 * converted prices never fall (a currency without a rate comes after them,
 * on its own), and the first result is the cheapest product meeting the
 * constraints in any currency with a rate. Without rates: once a currency's
 * results end it never comes back, each currency's prices never fall, and
 * the first result is the cheapest product meeting the constraints in its
 * currency.
 */
const isCheapestFirst = (
  answered: ReadonlyArray<CatalogRow>,
  rows: ReadonlyArray<CatalogRow>,
  judgement: Judgement,
  rates: ExchangeRates | undefined
) => {
  const first = answered[0]
  if (rates !== undefined && rates.asOf !== null) {
    const inEur = (row: CatalogRow) => comparablePrice(row.price, row.currency, rates)
    const converted = answered.map(inEur)
    const rated = converted.filter((amount): amount is number => amount !== undefined)
    // every converted price first, never falling; then the rest (own currencies, checked below)
    if (converted.slice(0, rated.length).some((amount) => amount === undefined)) return false
    if (rated.some((amount, i) => i > 0 && amount < rated[i - 1])) return false
    const firstEur = inEur(first)
    if (firstEur !== undefined) {
      const meeting = rows.filter((row) => inEur(row) !== undefined && meets(row, judgement.constraints))
      return cheapestAmong(meeting, judgement, (row) => inEur(row)! >= firstEur - 0.005)
    }
  }
  const done = new Set<string>()
  for (let i = 1; i < answered.length; i++) {
    const [before, row] = [answered[i - 1], answered[i]]
    if (row.currency !== before.currency) {
      done.add(before.currency)
      if (done.has(row.currency)) return false
    } else if (row.price < before.price) return false
  }
  const meeting = rows.filter((row) => row.currency === first.currency && meets(row, judgement.constraints))
  return cheapestAmong(meeting, judgement, (row) => row.price >= first.price)
}

/** Whether every candidate among `meeting` costs at least the first result (`notCheaper`). */
const cheapestAmong = (
  meeting: ReadonlyArray<CatalogRow>,
  judgement: Judgement,
  notCheaper: (row: CatalogRow) => boolean
) => {
  const inStock = meeting.filter((row) => row.inStock)
  const candidates = inStock.length > 0 ? inStock : meeting
  // Products whose title names the product come first (a sneaker filed under Shoes is not what
  // "cheapest shoes" names): the first result must be the cheapest of those, when there are any.
  const words = judgement.constraints.words
  const titled = candidates.filter((row) => words?.some((word) => wordsOf(row.title).includes(word)))
  return (titled.length > 0 ? titled : candidates).every(notCheaper)
}

/** A cheapest-match suggestion is true when its product exists at that price and nothing matching is cheaper. */
const trueSuggestion = (
  suggestion: NonNullable<SearchAnswer["suggestions"]>[number],
  rows: ReadonlyArray<CatalogRow>,
  judgement: Judgement
) => {
  const price = suggestion.price
  if (price === undefined) return false
  const exists = rows.some(
    (row) => row.title === suggestion.title && row.currency === price.currency && row.price === price.amount
  )
  const unbounded = withoutPriceBound(judgement.constraints)
  const cheaper = rows.some(
    (row) => row.inStock && row.currency === price.currency && row.price < price.amount && meets(row, unbounded)
  )
  return exists && !cheaper
}

const dcg = (gains: ReadonlyArray<number>) => gains.reduce((sum, gain, i) => sum + gain / Math.log2(i + 2), 0)

/** `search` returns the ids of the results (index document ids) for a phrase. */
export const evaluate = async (
  judgements: ReadonlyArray<Judgement>,
  rows: ReadonlyArray<CatalogRow>,
  search: (q: string) => Promise<SearchAnswer>,
  /** The reference rates the service ordered prices by (none: prices compare within their currency). */
  rates?: ExchangeRates
): Promise<Scores> => {
  const byId = new Map(rows.map((row) => [row.id, row]))
  const outcomes: Array<QueryOutcome> = []
  for (const judgement of judgements) {
    const answer = await search(judgement.q)
    const results = answer.ids.slice(0, PAGE).map((id) => catalogIdOf(id) ?? id)
    const answered = results.flatMap((id) => byId.get(id) ?? [])
    const gender = judgement.constraints.gender
    const cheapest = judgement.checks?.cheapestFirst === true && answered.length > 0
    const given = (answer.suggestions ?? []).filter((s) => s.kind === "cheapest_match")
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
      ndcg: ideal.length === 0 ? (results.length === 0 ? 1 : 0) : dcg(gains) / dcg(ideal),
      oppositeGender: gender === undefined ? 0 : answered.filter((row) => isOppositeGender(row, gender)).length,
      ...(cheapest ? { cheapestFirst: isCheapestFirst(answered, rows, judgement, rates) } : {}),
      ...(judgement.checks?.suggestions === true
        ? {
            suggestions: {
              given: given.length,
              true: given.filter((s) => trueSuggestion(s, rows, judgement)).length
            }
          }
        : {})
    })
  }
  const satisfiable = outcomes.filter((o) => satisfyingGroups(rows, o.judgement.constraints).size > 0)
  const shown = outcomes.reduce((sum, o) => sum + o.results.length, 0)
  const must = outcomes.reduce((sum, o) => sum + o.judgement.mustAppear.length, 0)
  const checkedCheapest = outcomes.filter((o) => o.cheapestFirst !== undefined)
  const checkedSuggestions = outcomes.filter((o) => o.suggestions !== undefined)
  const suggestionsGiven = checkedSuggestions.reduce((sum, o) => sum + (o.suggestions?.given ?? 0), 0)
  return {
    oppositeGender: outcomes.reduce((sum, o) => sum + o.oppositeGender, 0),
    genderQueries: outcomes.filter((o) => o.judgement.constraints.gender !== undefined).length,
    cheapestFirstRate:
      checkedCheapest.length === 0
        ? 1
        : checkedCheapest.filter((o) => o.cheapestFirst === true).length / checkedCheapest.length,
    cheapestQueries: checkedCheapest.length,
    suggestionTruth:
      suggestionsGiven === 0
        ? 0
        : checkedSuggestions.reduce((sum, o) => sum + (o.suggestions?.true ?? 0), 0) / suggestionsGiven,
    suggestionQueries: checkedSuggestions.length,
    withoutSuggestions: checkedSuggestions.filter((o) => o.suggestions?.given === 0).length,
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
    `nDCG@8:                ${scores.ndcgAt8.toFixed(3)} (target >= 0.85)`,
    `opposite-gender results: ${scores.oppositeGender} in ${scores.genderQueries} gender/recipient queries (target 0)`,
    `cheapest first:        ${(scores.cheapestFirstRate * 100).toFixed(1)}% of ${scores.cheapestQueries} price-word queries (target 100%)`,
    `zero-result suggestions: ${(scores.suggestionTruth * 100).toFixed(1)}% true; ${scores.withoutSuggestions} of ${scores.suggestionQueries} empty answers without one`
  ].join("\n")

/** One line per family: queries, empty answers that some product could fill, precision, nDCG. */
export const familyTable = (scores: Scores): string => {
  const families = new Map<string, Array<QueryOutcome>>()
  for (const outcome of scores.outcomes)
    families.set(outcome.judgement.family, [...(families.get(outcome.judgement.family) ?? []), outcome])
  const lines = ["family               queries  empty  precision  nDCG"]
  for (const [family, outcomes] of [...families.entries()].sort()) {
    const shown = outcomes.reduce((sum, o) => sum + o.results.length, 0)
    const precision = shown === 0 ? 1 : outcomes.reduce((sum, o) => sum + o.relevant, 0) / shown
    const empty = outcomes.filter((o) => o.results.length === 0 && o.judgement.satisfying > 0).length
    const ndcg = outcomes.reduce((sum, o) => sum + o.ndcg, 0) / outcomes.length
    lines.push(
      `${family.padEnd(20)} ${String(outcomes.length).padStart(7)} ${String(empty).padStart(6)} ` +
        `${precision.toFixed(3).padStart(10)} ${ndcg.toFixed(3).padStart(5)}`
    )
  }
  return lines.join("\n")
}
