// npm run bench:match
// POST /api/v1/links/match against the sample catalog (data/samples, loaded
// through the real pipelines): new-link matches per second and latency (each
// request a URL never seen before: a DuckDB write per link), then repeated
// matches (the same URLs again, anonymous and with a partner's key: answered
// from memory, no store read).
// BENCH_SECONDS (default 10) per phase, BENCH_CONNECTIONS (default 20).
import { Effect } from "effect"
import { ProgramMatcher } from "../links/ProgramMatcher.ts"
import { Database } from "../infra/Database.ts"
import { PipelineRunner } from "../pipelines/PipelineRunner.ts"
import { startBenchService } from "./support/benchService.ts"
import { runLoad } from "./support/runLoad.ts"

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20)

console.log("starting the service and loading the sample networks and programmes ...")
const service = await startBenchService("match")
try {
  const domains = await service.run(
    Effect.gen(function* () {
      const runner = yield* PipelineRunner
      for (const feed of ["networks", "programs"]) {
        const run = yield* runner.run(feed, "manual")
        if (run.status !== "succeeded")
          return yield* Effect.die(new Error(`feed ${feed}: ${run.status} ${run.error ?? ""}`))
      }
      yield* (yield* ProgramMatcher).reload
      const rows = yield* (yield* Database).query<{ domain: string }>(
        `SELECT DISTINCT d.domain FROM program_domains d JOIN programs p ON p.id = d.program_id
       JOIN networks n ON n.id = p.network_id WHERE p.status = 'active' AND n.status = 'active' ORDER BY 1 LIMIT 300`
      )
      return rows.map((row) => row.domain)
    })
  )
  console.log(`${domains.length} merchant domains, ${CONNECTIONS} connections, ${SECONDS} s per phase`)

  const headers = { "content-type": "application/json" }
  const url = service.url
  // New links: every request a URL never seen before, across all the domains.
  const fresh = await runLoad({
    url,
    paths: ["/api/v1/links/match"],
    method: "POST",
    headers,
    bodyTemplate: JSON.stringify({ url: `https://www.${domains[0]}/product/{n}?utm_source=bench` }),
    connections: CONNECTIONS,
    seconds: SECONDS
  })
  // Repeated: a warm-up pass creates one link per domain, then the same URLs again and again.
  const repeatedPaths = domains.map(() => "/api/v1/links/match")
  for (const domain of domains) {
    await fetch(`${url}/api/v1/links/match`, {
      method: "POST",
      headers,
      body: JSON.stringify({ url: `https://${domain}/same` })
    })
  }
  const repeated = await runLoad({
    url,
    paths: repeatedPaths,
    method: "POST",
    headers,
    body: JSON.stringify({ url: `https://${domains[0]}/same` }),
    connections: CONNECTIONS,
    seconds: SECONDS
  })
  // A partner's repeat matches: the same, plus what a partner's match adds (the
  // check that restores a link it deleted), which must answer from memory too.
  const partner = await fetch(`${url}/api/v1/partners/register`, {
    method: "POST",
    headers,
    body: JSON.stringify({ name: "Bench Partner", email: "bench@partner.example" })
  })
  const partnerHeaders = { ...headers, authorization: `Bearer ${((await partner.json()) as any).api_key}` }
  for (const domain of domains) {
    await fetch(`${url}/api/v1/links/match`, {
      method: "POST",
      headers: partnerHeaders,
      body: JSON.stringify({ url: `https://${domain}/same` })
    })
  }
  const partnerRepeated = await runLoad({
    url,
    paths: repeatedPaths,
    method: "POST",
    headers: partnerHeaders,
    body: JSON.stringify({ url: `https://${domains[0]}/same` }),
    connections: CONNECTIONS,
    seconds: SECONDS
  })
  const created = await service.run(
    Effect.gen(function* () {
      const rows = yield* (yield* Database).query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM tracking_links")
      return rows[0].n
    })
  )
  const line = (label: string, r: typeof fresh) =>
    console.log(
      `${label.padEnd(26)} ${r.requestsPerSecond.toFixed(0).padStart(6)} matches/s  p50 ${r.p50} ms  p99 ${r.p99} ms  ` +
        `200: ${r.s2xx}  other: ${r.s3xx + r.s4xx + r.s5xx}  errors: ${r.errors + r.timeouts}`
    )
  console.log("")
  line("new links (write each)", fresh)
  line("repeated (same URL)", repeated)
  line("repeated, partner's key", partnerRepeated)
  console.log(
    `tracking_links rows: ${created} (new-link phase answered ${fresh.s2xx}, plus ${domains.length} warm-up links twice)`
  )
  if ([fresh, repeated, partnerRepeated].some((r) => r.s4xx + r.s5xx > 0)) process.exitCode = 1
} finally {
  await service.close()
  service.remove()
}
