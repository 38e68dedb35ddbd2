// npm run bench:ai-match
// POST /api/v1/ai/match-link on URLs that need fuzzy matching (a misspelt
// domain), against the baseline measured in the same run: the same candidate
// search sent straight to Meilisearch's /multi-search on the programmes index,
// the floor of any Meilisearch-backed fuzzy matcher. Phases: the baseline,
// repeated fuzzy matches (the link exists; the host's candidates are cached),
// new fuzzy links (a DuckDB write each), a new host label each request (the
// candidate search runs every time; these do not match), a domain-matched URL on the same endpoint
// (no search: the cost of auth, the contract and the link read); then the
// in-process scorer alone.
// BENCH_SECONDS (default 10) per phase, BENCH_CONNECTIONS (default 20).
import { Effect } from "effect"
import { ProgramMatcher } from "../links/ProgramMatcher.ts"
import { makeBrandIndex } from "../domain/matching/fuzzy/brandIndex.ts"
import { scoreUrl } from "../domain/matching/fuzzy/fuzzyScore.ts"
import { SearchEngine } from "../infra/SearchEngine.ts"
import { PipelineRunner } from "../pipelines/PipelineRunner.ts"
import { PROGRAMS_INDEX } from "../readModel/indexes.ts"
import { startBenchService } from "./support/benchService.ts"
import { type LoadResult, runLoad } from "./support/runLoad.ts"

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20)

console.log("starting the service and loading the sample networks and programmes ...")
const service = await startBenchService("ai-match")
try {
  const { catalog, meiliUrl, meiliKey, uid } = await service.run(
    Effect.gen(function* () {
      const runner = yield* PipelineRunner
      for (const feed of ["networks", "programs"]) {
        const run = yield* runner.run(feed, "manual")
        if (run.status !== "succeeded")
          return yield* Effect.die(new Error(`feed ${feed}: ${run.status} ${run.error ?? ""}`))
      }
      const matcher = yield* ProgramMatcher
      yield* matcher.reload
      const engine = yield* SearchEngine
      return {
        catalog: (yield* matcher.current).catalog,
        meiliUrl: engine.url,
        meiliKey: engine.client.config.apiKey ?? "",
        uid: engine.indexUid(PROGRAMS_INDEX)
      }
    })
  )
  const key = (
    (await (
      await fetch(`${service.url}/api/v1/partners/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Bench", email: "bench@x.example" })
      })
    ).json()) as { api_key: string }
  ).api_key
  const fuzzyUrl = "https://nikee.com/t/air-max-90"
  const check = (await (
    await fetch(`${service.url}/api/v1/ai/match-link`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ url: fuzzyUrl })
    })
  ).json()) as { matched: boolean; method: string; candidate_source: string; program: string }
  if (!check.matched || check.method !== "fuzzy" || check.candidate_source !== "search_index") {
    throw new Error(`the bench URL must be a fuzzy match through the search index: ${JSON.stringify(check)}`)
  }
  console.log(`${fuzzyUrl} -> ${check.program} (fuzzy); ${CONNECTIONS} connections, ${SECONDS} s per phase\n`)

  // The endpoint's own candidate request, sent directly.
  const baseline = await runLoad({
    url: meiliUrl,
    paths: ["/multi-search"],
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${meiliKey}` },
    body: JSON.stringify({
      queries: [
        {
          indexUid: uid,
          q: "nikee",
          limit: 20,
          attributesToSearchOn: ["name", "domains"],
          attributesToRetrieve: ["program_id"]
        }
      ]
    }),
    connections: CONNECTIONS,
    seconds: SECONDS
  })
  // Every phase posts to the endpoint with the partner's key; only the submitted URL differs.
  // `{n}` in a URL makes it new on every request.
  const matchLinkLoad = (url: string) =>
    runLoad({
      url: service.url,
      paths: ["/api/v1/ai/match-link"],
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      ...(url.includes("{n}") ? { bodyTemplate: JSON.stringify({ url }) } : { body: JSON.stringify({ url }) }),
      connections: CONNECTIONS,
      seconds: SECONDS
    })
  const repeated = await matchLinkLoad(fuzzyUrl)
  // A host label never seen before on every request: the candidate search runs each time (no cache).
  const coldLabels = await matchLinkLoad("https://nikee-{n}.com/t/x")
  // The same endpoint on a URL domain matching answers (no search): what auth, the contract and the link read cost.
  const domainOnly = await matchLinkLoad("https://nike.com/t/air-max-90")
  const fresh = await matchLinkLoad("https://nikee.com/t/{n}")

  const line = (label: string, r: LoadResult) =>
    console.log(
      `${label.padEnd(40)} ${r.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  ` +
        `2xx: ${r.s2xx}  other: ${r.s3xx + r.s4xx + r.s5xx}  errors: ${r.errors + r.timeouts}`
    )
  line("baseline: Meilisearch /multi-search", baseline)
  line("match-link, fuzzy, repeated link", repeated)
  line("match-link, fuzzy, new link each", fresh)
  line("match-link, new host label each (search)", coldLabels)
  line("match-link, domain match, repeated link", domainOnly)
  const ratio = (r: LoadResult) => (r.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)
  console.log(
    `\nthroughput vs the direct Meilisearch search: repeated ${ratio(repeated)}x, new links ${ratio(fresh)}x, ` +
      `new host label (search each time) ${ratio(coldLabels)}x, ` +
      `domain-matched ${ratio(domainOnly)}x`
  )

  // The scorer alone, in this process: candidates from the search vs the whole catalog (the fallback).
  const index = makeBrandIndex(catalog)
  const urls = [
    "https://nikee.com/t/x",
    "https://www.amazn.co.uk/dp/B0X",
    "https://some-market.example/listing/dyson-v15",
    "https://nice.com/"
  ].map((u) => new URL(u))
  const time = (candidates: ReadonlySet<string> | "all") => {
    const rounds = 2_000
    const start = performance.now()
    for (let i = 0; i < rounds; i++) for (const url of urls) scoreUrl(url, index, candidates)
    return ((performance.now() - start) * 1000) / (rounds * urls.length)
  }
  time("all") // warm-up
  const withCandidates = time(new Set(["nike", "amazon", "dyson"]))
  const scan = time("all")
  console.log(
    `scorer per URL (${index.byKey.size} brand keys): with search candidates ${withCandidates.toFixed(1)} µs, ` +
      `in-memory scan (Meilisearch down) ${scan.toFixed(1)} µs (${(scan / withCandidates).toFixed(1)}x)`
  )
  if (
    baseline.s2xx === 0 ||
    repeated.s4xx +
      repeated.s5xx +
      fresh.s4xx +
      fresh.s5xx +
      coldLabels.s4xx +
      coldLabels.s5xx +
      domainOnly.s4xx +
      domainOnly.s5xx >
      0
  )
    process.exitCode = 1
} finally {
  await service.close()
  service.remove()
}
