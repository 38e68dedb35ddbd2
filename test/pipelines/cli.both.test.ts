import { Effect } from "effect"
import { spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { freePort } from "../../infra/MeiliServer.ts"
import { tempDir } from "../support/TestService.ts"
import { products, startWithFeeds, tsv, writeFeeds } from "./support.ts"

// The operator commands as an operator runs them: through a running server
// (its admin token read from DATA_DIR), and in-process when none answers.
const cli = (args: Array<string>, env: Record<string, string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ADMIN_TOKEN: "", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr += chunk))
    child.on("exit", (code) => resolve({ code, stdout, stderr }))
  })

describe("operator CLI: ingest and status", () => {
  const files = tempDir("cli-")
  const good = join(files.dir, "good.tsv")
  const bad = join(files.dir, "bad.tsv")
  let env: Awaited<ReturnType<typeof startWithFeeds>>
  beforeAll(async () => {
    writeFileSync(good, tsv(products(20)))
    writeFileSync(bad, "not\ta\tfeed\n")
    env = await startWithFeeds([
      { name: "good", kind: "products", format: "gmc-tsv", location: good, options: { store: "G" } }
    ])
  })
  afterAll(async () => {
    await env.close()
    files.rm()
  })

  it("asks the running server, with the token it wrote to DATA_DIR", async () => {
    const run = await cli(["cli/ingest.ts", "--json", "--url", env.service.url], { DATA_DIR: env.service.dataDir })
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual([
      expect.objectContaining({ feed: "good", status: "succeeded", rowsLoaded: 20 })
    ])
    const status = await cli(["cli/operator/status.ts", "--json", "--url", env.service.url], {
      DATA_DIR: env.service.dataDir
    })
    expect(JSON.parse(status.stdout).map((r: any) => [r.feed, r.status])).toEqual([["good", "succeeded"]])
    const human = await cli(["cli/ingest.ts", "--url", env.service.url], { DATA_DIR: env.service.dataDir })
    expect(human.stdout).toMatch(/^feed\s+status\s+read\s+loaded/)
    expect(human.stdout).toMatch(/good\s+skipped/)
  })

  it("runs in-process when no server answers, and exits 1 when a run fails", async () => {
    const data = tempDir("cli-data-")
    const port = await Effect.runPromise(freePort)
    const environment = {
      DATA_DIR: data.dir,
      PORT: String(port),
      FEEDS_CONFIG: writeFeeds(files.dir, [
        { name: "good", kind: "products", format: "gmc-tsv", location: good, options: { store: "G" } },
        { name: "bad", kind: "products", format: "gmc-tsv", location: bad, options: { store: "B" } }
      ]),
      MEILI_URL: inject("meiliUrl"),
      MEILI_MASTER_KEY: inject("meiliKey"),
      MEILI_INDEX_PREFIX: `cli${port}_`
    }
    const run = await cli(["cli/ingest.ts", "--json"], environment)
    expect(run.code).toBe(1)
    expect(JSON.parse(run.stdout).map((r: any) => [r.feed, r.status])).toEqual([
      ["good", "succeeded"],
      ["bad", "failed"]
    ])
    const status = await cli(["cli/operator/status.ts", "--feed", "bad"], environment)
    expect(status.stdout).toMatch(/bad\s+manual\s+failed.*missing required columns/)
    data.rm()
  })
})
