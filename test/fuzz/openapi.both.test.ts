import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runCampaign } from "./campaign.ts"
import { formatFindings, formatStatuses } from "./report.ts"
import { fuzzSettings } from "./settings.ts"
import { type FuzzService, startFuzzService } from "./service.ts"

// Property-based requests generated from our own /openapi.json (valid ones
// and single mutations), malformed raw HTTP and malformed JSON-RPC, against a
// started service on the suite's store. In the suite: a fixed seed and a
// bounded number of requests; `npm run fuzz` runs the same for minutes with a
// random seed (test/fuzz/run.ts). Any finding fails the test with its
// operation, mutation, answer and the seed that reproduces it.

const settings = fuzzSettings()

describe("fuzz: every input answered as documented", () => {
  let fuzz: FuzzService
  beforeAll(async () => {
    fuzz = await startFuzzService()
  })
  afterAll(() => fuzz?.service.close())

  it(
    `answers requests generated from /openapi.json, malformed HTTP and JSON-RPC (${settings.describe})`,
    async () => {
      console.log(`fuzz: seed ${settings.seed} (${settings.describe}); reproduce with FUZZ_SEED=${settings.seed}`)
      const started = performance.now()
      const result = await runCampaign(fuzz, { ...settings.campaign, log: (line) => console.log(line) })
      const seconds = ((performance.now() - started) / 1000).toFixed(1)
      console.log(
        `fuzz: ${result.requests} requests in ${seconds} s over ${result.rounds} round(s), ` +
          `${result.unsendable} the client would not send, ${result.retried} sent again after a connection reset, ${result.transient503s} 503s gone on a retry, ${result.findings.length} distinct findings (seed ${settings.seed})`
      )
      console.log(`fuzz: answers by operation and status:\n${formatStatuses(result.statuses)}`)
      const report = formatFindings(result.findings)
      expect(result.requests).toBeGreaterThan(0)
      expect(
        result.findings.length,
        `fuzz findings with seed ${settings.seed} (FUZZ_SEED=${settings.seed} reproduces):\n${report}\n`
      ).toBe(0)
    },
    settings.timeoutMs
  )
})
