import { Context, Effect, Layer } from "effect"
import type { Catalog } from "../../domain/matching/catalog.ts"
import { type BrandIndex, makeBrandIndex } from "../../domain/matching/fuzzy/brandIndex.ts"
import { type Choice, chooseProgram } from "../../domain/matching/fuzzy/chooseProgram.ts"
import { type FuzzyOutcome, scoreUrl } from "../../domain/matching/fuzzy/fuzzyScore.ts"
import { hostParts } from "../../domain/matching/fuzzy/urlParts.ts"
import { Metrics } from "../../infra/Metrics.ts"
import { SearchEngine, type SearchError, toSearchError } from "../../infra/SearchEngine.ts"
import { PROGRAMS_INDEX } from "../../readModel/indexes.ts"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"

// Fuzzy merchant matching for URLs no catalog domain covers. Candidates come
// from the Meilisearch programmes index (its typo tolerance finds "nike" for
// "nikee" among any number of programmes); the pure scorer in
// domain/matching/fuzzy decides with string similarity. When Meilisearch is
// down or slow, every brand of the in-memory catalog is scored instead (a
// few thousand short strings: about a millisecond), so the endpoint keeps
// answering and says which way it went.

/** A candidate search that takes longer falls back to the in-memory scan. */
const SEARCH_DEADLINE = "500 millis"
const HITS_PER_QUERY = 20
/**
 * Candidate sets kept per host label for the current catalog: the same
 * misspelt domain tends to come back (a partner's feed, a shopper's habit),
 * and its candidates only change with the catalog. Bounded; oldest out first.
 */
const CANDIDATE_CACHE_SIZE = 10_000

export type CandidateSource = "search_index" | "in_memory"

export interface FuzzyMatch {
  readonly outcome: FuzzyOutcome
  /** The programme for the best candidate (absent when there is none). */
  readonly choice: Choice | undefined
  readonly source: CandidateSource
  readonly catalog: Catalog
}

export class FuzzyMatcher extends Context.Service<
  FuzzyMatcher,
  {
    match(url: URL): Effect.Effect<FuzzyMatch>
  }
>()("app/ai/matchLink/FuzzyMatcher") {
  static readonly layer = Layer.effect(
    FuzzyMatcher,
    Effect.gen(function* () {
      const matcher = yield* ProgramMatcher
      const engine = yield* SearchEngine
      const metrics = yield* Metrics
      const fallbacks = metrics.counter(
        "ai_match_fallbacks_total",
        "Fuzzy matches scored in memory because Meilisearch failed"
      )
      const uid = engine.indexUid(PROGRAMS_INDEX)
      // The index and the candidate cache follow the catalog object ProgramMatcher holds:
      // rebuilt only when it is replaced.
      interface PerCatalog {
        readonly index: BrandIndex
        readonly candidates: Map<string, ReadonlySet<string>>
      }
      const perCatalog = new WeakMap<Catalog, PerCatalog>()
      const stateFor = (catalog: Catalog) => {
        let state = perCatalog.get(catalog)
        if (state === undefined) {
          state = { index: makeBrandIndex(catalog), candidates: new Map() }
          perCatalog.set(catalog, state)
        }
        return state
      }
      const remember = (cache: Map<string, ReadonlySet<string>>, label: string, keys: ReadonlySet<string>) => {
        if (cache.size >= CANDIDATE_CACHE_SIZE) cache.delete(cache.keys().next().value!)
        cache.set(label, keys)
      }
      let searchFailing = false

      /** Brand keys of the programmes the index finds for the host's label (one multi-search request). */
      const searchCandidates = (
        url: URL,
        { candidates, index }: PerCatalog
      ): Effect.Effect<ReadonlySet<string>, SearchError> => {
        const host = hostParts(url.hostname)
        if (host === undefined) return Effect.succeed(new Set<string>())
        const cached = candidates.get(host.label)
        if (cached !== undefined) return Effect.succeed(cached)
        const texts = new Set([host.label, host.labelWords.join(" ")])
        return Effect.tryPromise({
          try: (signal) =>
            engine.client.multiSearch(
              {
                queries: [...texts].map((q) => ({
                  indexUid: uid,
                  q,
                  limit: HITS_PER_QUERY,
                  attributesToSearchOn: ["name", "domains"],
                  attributesToRetrieve: ["program_id"]
                }))
              },
              { signal }
            ),
          catch: toSearchError("programme candidates")
        }).pipe(
          Effect.timeoutOrElse({
            duration: SEARCH_DEADLINE,
            orElse: () => Effect.fail(toSearchError("programme candidates")(new Error("Meilisearch timed out")))
          }),
          Effect.map((response) => {
            const keys = new Set<string>()
            for (const result of response.results) {
              for (const hit of result.hits) {
                for (const key of index.keysOfProgram.get(String(hit.program_id)) ?? []) keys.add(key)
              }
            }
            remember(candidates, host.label, keys)
            return keys
          })
        )
      }

      const match = Effect.fn("FuzzyMatcher.match")(function* (url: URL) {
        const { catalog } = yield* matcher.current
        const state = stateFor(catalog)
        const found = yield* searchCandidates(url, state).pipe(
          Effect.map((keys) => ({
            keys: keys as ReadonlySet<string> | "all",
            source: "search_index" as CandidateSource
          })),
          Effect.tap(() =>
            Effect.sync(() => {
              searchFailing = false
            })
          ),
          Effect.catch((error) =>
            Effect.gen(function* () {
              fallbacks.inc()
              // One warning per outage, not one per request.
              if (!searchFailing)
                yield* Effect.logWarning("ai match-link: Meilisearch unavailable, scoring in memory", error.message)
              searchFailing = true
              return { keys: "all" as const, source: "in_memory" as CandidateSource }
            })
          )
        )
        const outcome = scoreUrl(url, state.index, found.keys)
        const choice =
          outcome.kind === "candidate"
            ? chooseProgram(catalog, outcome.best.brand, outcome.best.evidence, url, outcome.best.country)
            : undefined
        return { outcome, choice, source: found.source, catalog } satisfies FuzzyMatch
      })

      return FuzzyMatcher.of({ match })
    })
  )
}
