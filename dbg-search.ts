import { Effect, References } from "effect"
import { DiscoverySearch } from "./api/discovery/DiscoverySearch.ts"
import { startBenchService } from "./bench/support/benchService.ts"
import { PipelineRunner } from "./pipelines/PipelineRunner.ts"
const service = await startBenchService("dbg-search")
try {
  await service.run(PipelineRunner.use((runner) => runner.runAll("manual")).pipe(Effect.provideService(References.MinimumLogLevel, "Warn")))
  await service.run(DiscoverySearch.use((search) => search.refreshVocabulary))
  for (const q of process.argv.slice(2)) {
    const body = await (await fetch(`${service.url}/api/search?q=${encodeURIComponent(q)}&limit=8`)).json() as any
    console.log(q, "\n ", body.guidance.slice(0, 300))
    for (const r of body.results) console.log("   ", r.title, r.price.amount, r.price.currency, r.store)
  }
} finally { await service.close(); service.remove() }
