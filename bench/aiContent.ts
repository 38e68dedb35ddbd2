// npm run bench:ai-content
// POST /api/v1/ai/generate-content (template generator) against the sample
// catalog loaded through the real pipelines (programmes, three product feeds,
// price history). Baseline in the same run: POST /api/v1/links/match for the
// same store home pages (matching and the partner's tracking link, without
// facts or copy), so the ratio is what reading the facts and writing the copy
// add. Cold: the 40 programmes with the most products, once each (facts read
// from DuckDB, new links). Warm: the five largest again and again (facts
// cached for a minute, links exist), both paths alternated twice so machine
// noise hits both. Sequential requests: latency, not throughput.
// BENCH_REQUESTS (default 150) per warm path and round.
import { Effect } from "effect"
import { ProgramMatcher } from "../links/ProgramMatcher.ts"
import { Database } from "../infra/Database.ts"
import { PipelineRunner } from "../pipelines/PipelineRunner.ts"
import { startBenchService } from "./support/benchService.ts"

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 150)

console.log("starting the service and loading the sample catalog (programmes, products, price history) ...")
const service = await startBenchService("ai-content")
try {
  const programs = await service.run(
    Effect.gen(function* () {
      const runner = yield* PipelineRunner
      for (const feed of ["networks", "programs", "us-electronics", "uk-lifestyle", "eu-awin", "price-history"]) {
        const run = yield* runner.run(feed, "manual")
        if (run.status !== "succeeded")
          return yield* Effect.die(new Error(`feed ${feed}: ${run.status} ${run.error ?? ""}`))
      }
      yield* (yield* ProgramMatcher).reload
      // Active programmes on open networks, by how many products their store domain has.
      return yield* (yield* Database).query<{ id: string; domain: string; products: number }>(
        `SELECT p.id, d.domain, count(*)::INTEGER AS products
       FROM programs p JOIN networks n ON n.id = p.network_id JOIN program_domains d ON d.program_id = p.id
       JOIN products pr ON lower(pr.store_domain) = d.domain OR lower(pr.store_domain) LIKE '%.' || d.domain
       WHERE p.status = 'active' AND n.status = 'active' AND n.deep_link_template IS NOT NULL
       GROUP BY 1, 2 ORDER BY products DESC, p.id LIMIT 40`
      )
    })
  )
  const productCount = await service.run(
    Effect.gen(function* () {
      return (yield* (yield* Database).query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM products"))[0]!.n
    })
  )
  if (programs.length === 0) throw new Error("no programme with products in the sample catalog")
  console.log(
    `${productCount} products; ${programs.length} programmes, most products: ${programs
      .slice(0, 5)
      .map((p) => `${p.id} (${p.products})`)
      .join(", ")}`
  )

  const key = (
    (await (
      await fetch(`${service.url}/api/v1/partners/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Bench Copy", email: "bench@x.example" })
      })
    ).json()) as { api_key: string }
  ).api_key
  const headers = { "content-type": "application/json", authorization: `Bearer ${key}` }

  const timed = async (path: string, bodyFor: (i: number) => unknown, count = REQUESTS) => {
    const times: Array<number> = []
    for (let i = 0; i < count; i++) {
      const started = performance.now()
      const res = await fetch(`${service.url}${path}`, { method: "POST", headers, body: JSON.stringify(bodyFor(i)) })
      await res.text()
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`)
      times.push(performance.now() - started)
    }
    return times
  }
  const types = ["social", "email", "blog"] as const
  const results: Record<string, Array<number>> = {}
  // Cold: each programme's first request (its facts are not cached yet; the baseline's link is new too).
  results["links/match, cold"] = await timed(
    "/api/v1/links/match",
    (i) => ({ url: `https://${programs[i]!.domain}/` }),
    programs.length
  )
  results["generate-content, cold"] = await timed(
    "/api/v1/ai/generate-content",
    (i) => ({ program_id: programs[i]!.id, type: types[i % types.length], tone: "casual" }),
    programs.length
  )
  // Warm: the five largest programmes again and again (facts cached for a minute, links exist).
  const warm = programs.slice(0, 5)
  const paths = {
    "links/match, warm": () =>
      timed("/api/v1/links/match", (i) => ({ url: `https://${warm[i % warm.length]!.domain}/` })),
    "generate-content, warm": () =>
      timed("/api/v1/ai/generate-content", (i) => ({
        program_id: warm[i % warm.length]!.id,
        type: types[i % types.length],
        tone: "casual"
      }))
  }
  for (let round = 0; round < 2; round++) {
    for (const [name, run] of Object.entries(paths)) results[name] = [...(results[name] ?? []), ...(await run())]
  }
  const quantile = (values: Array<number>, q: number) =>
    [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))]!
  // Each phase against its own baseline: cold with cold, warm with warm.
  for (const [name, times] of Object.entries(results)) {
    const base = results[name.startsWith("generate-content, cold") ? "links/match, cold" : "links/match, warm"]!
    console.log(
      `${name.padEnd(24)} n=${String(times.length).padEnd(4)} p50 ${quantile(times, 0.5).toFixed(2)} ms  p95 ${quantile(times, 0.95).toFixed(2)} ms` +
        (name.startsWith("links/match")
          ? ""
          : `  p50 ratio to links/match ${(quantile(times, 0.5) / quantile(base, 0.5)).toFixed(2)}x`)
    )
  }
} finally {
  await service.close()
}
