import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { join } from "node:path"
import { startService, tempDir, type RunningService } from "../support/TestService.ts"
import { cleanEnv, runCli } from "./partnerCli.ts"

// A 429 from the API reaches the partner as one line with the wait from
// Retry-After, on stderr with exit 2 (a server condition: retrying later
// helps). Registration allows one per minute here.
describe("partner CLI on a rate-limited server", () => {
  let service: RunningService
  let home: ReturnType<typeof tempDir>
  beforeAll(async () => {
    service = await startService({ rateLimitRegister: { perMinute: 1, burst: 1 } })
    home = tempDir("partner-cli-429-")
  })
  afterAll(async () => {
    await service?.close()
    home?.rm()
  })

  it("prints the 429 error with the Retry-After wait and exits 2", async () => {
    const init = (n: number) =>
      runCli(
        [
          "init",
          "--name",
          `Limited ${n}`,
          "--email",
          `l${n}@partner.test`,
          "--app-url",
          "https://l.test",
          "--server",
          service.url
        ],
        cleanEnv(home.dir, { AFF_CONFIG: join(home.dir, `config-${n}.json`) })
      )
    const first = await init(1)
    expect(first.stderr).toBe("")
    expect(first.code).toBe(0)
    const second = await init(2)
    expect(second.code).toBe(2)
    expect(second.stdout).toBe("")
    expect(second.stderr).toMatch(/^aff: API error 429 \(\w+\): .+ \(rate limited: try again in \d+ seconds\)\n$/)
  })
})
