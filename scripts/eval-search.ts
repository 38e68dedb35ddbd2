// npm run eval:search -- [--write] [--family NAME] [--show-misses]
//
// Scores GET /api/search on the sample catalog against the judged set in
// test/fixtures/search-judgements.json: the whole service runs in this
// process (DuckDB under data/var/, the embedded Meilisearch or MEILI_URL),
// the samples are ingested through the real pipelines, and every judged
// phrase is sent over HTTP. --write first derives the judged set again from
// the ingested catalog (scripts/search-eval/derive.ts) and saves it.
import { Effect, References } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { parseArgs } from "node:util"
import { DiscoverySearch } from "../discovery/DiscoverySearch.ts"
import { ExchangeRates } from "../discovery/ExchangeRates.ts"
import { catalogIdOf } from "../readModel/documents.ts"
import { startBenchService } from "../bench/support/benchService.ts"
import { PipelineRunner } from "../pipelines/PipelineRunner.ts"
import { referenceClock } from "./lib/referenceClock.ts"
import { AS_OF } from "./products/product.ts"
import { catalogRows } from "./search-eval/catalog.ts"
import { deriveJudgements } from "./search-eval/derive.ts"
import { evaluate, familyTable, formatScores, PAGE, type SearchAnswer } from "./search-eval/evaluate.ts"
import { meets, type JudgementSet } from "./search-eval/judgement.ts"
import { formatPurity, marketPurity } from "./search-eval/marketPurity.ts"
import { makeSearchClient } from "./search-eval/searchClient.ts"

export const JUDGEMENTS_FILE = "test/fixtures/search-judgements.json"

const { values } = parseArgs({
  options: {
    write: { type: "boolean", default: false },
    family: { type: "string" },
    "show-misses": { type: "boolean", default: false }
  }
})

const main = async () => {
  // the samples' calendar (sale windows, price history), whatever day this runs
  const service = await startBenchService("eval-search", {}, { clock: referenceClock(AS_OF) })
  try {
    // the pipelines' per-run log lines would bury the scores
    await service.run(
      PipelineRunner.use((runner) => runner.runAll("manual")).pipe(
        Effect.provideService(References.MinimumLogLevel, "Warn")
      )
    )
    await service.run(DiscoverySearch.use((search) => search.refreshVocabulary))
    const rows = await service.run(catalogRows)
    if (values.write) {
      writeFileSync(JUDGEMENTS_FILE, `${JSON.stringify(deriveJudgements(rows), null, 1)}\n`)
      process.stdout.write(`wrote ${JUDGEMENTS_FILE}\n`)
    }
    const set = JSON.parse(readFileSync(JUDGEMENTS_FILE, "utf8")) as JudgementSet
    const judgements = set.judgements.filter((j) => values.family === undefined || j.family === values.family)
    // the judged phrases name no market: the service orders their prices converted at these rates
    const rates = await service.run(ExchangeRates.use((loaded) => loaded.current))
    const search = makeSearchClient()
    const scores = await evaluate(
      judgements,
      rows,
      async (q) => {
        const response = await search.get(`${service.url}/api/search?q=${encodeURIComponent(q)}&limit=${PAGE}`)
        if (response.status !== 200) throw new Error(`${q}: HTTP ${response.status} ${JSON.stringify(response.body)}`)
        const body = response.body as {
          results: Array<{ id: string }>
          suggestions?: SearchAnswer["suggestions"]
        }
        return {
          ids: body.results.map((result) => result.id),
          ...(body.suggestions ? { suggestions: body.suggestions } : {})
        }
      },
      rates
    )
    process.stdout.write(`${familyTable(scores)}\n`)
    if (values["show-misses"]) {
      for (const o of scores.outcomes) {
        if (o.ndcg >= 0.8 && o.relevant === o.results.length && (o.results.length > 0 || o.judgement.satisfying === 0))
          continue
        process.stdout.write(
          `  miss ${o.judgement.family}: "${o.judgement.q}" -> ${o.results.length} results, ` +
            `${o.relevant} relevant, nDCG ${o.ndcg.toFixed(2)} (${o.judgement.satisfying} satisfy)\n` +
            (o.relevant < o.results.length
              ? `      off: ${o.results
                  .filter((id) => {
                    const row = rows.find((r) => r.id === id)
                    return row === undefined || !meets(row, o.judgement.constraints)
                  })
                  .map((id) => {
                    const row = rows.find((r) => r.id === id)
                    return `${row?.title} [${row?.price} ${row?.currency}]`
                  })
                  .slice(0, 3)
                  .join(" | ")}\n`
              : "")
        )
      }
    }
    process.stdout.write(`\n${formatScores(scores)}\n`)
    const rowsById = new Map(rows.map((row) => [row.id, row]))
    const purity = await marketPurity(judgements, async (q, country) => {
      const market = country === undefined ? "" : `&country=${country}`
      const response = await search.get(`${service.url}/api/search?q=${encodeURIComponent(q)}&limit=${PAGE}${market}`)
      if (response.status !== 200) throw new Error(`${q}: HTTP ${response.status} ${JSON.stringify(response.body)}`)
      const body = response.body as { results: Array<{ id: string; price: { currency: string } }> }
      return body.results.map((result) => ({
        currency: result.price.currency,
        countries: rowsById.get(catalogIdOf(result.id) ?? result.id)?.countries ?? []
      }))
    })
    process.stdout.write(`\n${formatPurity(purity)}\n`)
    if (search.retries() > 0) process.stdout.write(`(${search.retries()} searches tried twice: a 503 or a reset)\n`)
  } finally {
    await service.close()
    service.remove()
  }
}

main().catch((error: unknown) => {
  // fetch's own message ("fetch failed") hides why: the cause says it
  const cause = error instanceof Error && error.cause !== undefined ? `\ncaused by: ${String(error.cause)}` : ""
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}${cause}\n`)
  process.exitCode = 1
})
