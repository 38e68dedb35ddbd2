import { spawn } from "node:child_process"
import { existsSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { freeLoopbackPort } from "../../infra/freeLoopbackPort.ts"
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
    // 20 products, then one with a price no parser accepts: line 22 of the file is rejected
    writeFileSync(good, tsv([...products(20), { id: "BAD", price: "cheap" }]))
    writeFileSync(bad, "not\ta\tfeed\n")
    env = await startWithFeeds([
      { name: "good", kind: "products", format: "gmc-tsv", location: good, options: { store: "G" } }
    ])
  })
  afterAll(async () => {
    await env.close()
    files.rm()
  })

  it("asks the running server, with the token it wrote to DATA_DIR, and says so", async () => {
    const run = await cli(["cli/ingest.ts", "--json", "--server", env.service.url], { DATA_DIR: env.service.dataDir })
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual([
      expect.objectContaining({ feed: "good", status: "succeeded", rowsLoaded: 20, rowsRejected: 1 })
    ])
    expect(run.stderr).toContain(
      `server ${env.service.url} (admin token from ${join(env.service.dataDir, "admin-token")})`
    )
    // --url stays an alias of --server
    const status = await cli(["cli/operator/status.ts", "--json", "--url", env.service.url], {
      DATA_DIR: env.service.dataDir
    })
    expect(status.stderr).toContain(`reading server ${env.service.url}`)
    expect(JSON.parse(status.stdout).map((r: any) => [r.feed, r.status])).toEqual([["good", "succeeded"]])
    const runId = JSON.parse(status.stdout)[0].id
    const rejected = await cli(["cli/operator/status.ts", "--rejected", runId, "--server", env.service.url], {
      DATA_DIR: env.service.dataDir
    })
    expect(rejected.code).toBe(0)
    expect(rejected.stdout).toMatch(/rows:\s+21 read, 20 loaded, 1 rejected/)
    expect(rejected.stdout).toMatch(/^\s*22\s+price: must look like "15.00 USD"\s+\{"id":"BAD"/m)
    const unknown = await cli(["cli/operator/status.ts", "--rejected", "no-such-run"], {
      DATA_DIR: env.service.dataDir,
      PORT: new URL(env.service.url).port
    })
    expect([unknown.code, unknown.stderr.trim().split("\n").at(-1)]).toEqual([1, "runs: no run no-such-run"])
    const human = await cli(["cli/ingest.ts", "--url", env.service.url], { DATA_DIR: env.service.dataDir })
    expect(human.stdout).toMatch(/^feed\s+status\s+read\s+loaded/)
    expect(human.stdout).toMatch(/good\s+skipped/)
  }, 180_000) // six operator commands, each its own node process

  it("runs in-process when no server answers, and exits 1 when a run fails", async () => {
    const data = tempDir("cli-data-")
    const port = await freeLoopbackPort()
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
    expect(run.stderr).toContain(`ingesting through this process, DATA_DIR ${data.dir} (no catalog there yet`)
    const status = await cli(["cli/operator/status.ts", "--feed", "bad"], environment)
    expect(status.stderr).toContain(`reading this process, DATA_DIR ${data.dir}`)
    expect(status.stdout).toMatch(/bad\s+manual\s+failed.*missing required columns/)
    data.rm()
  })

  it("says what it found instead of making an empty catalog where the server is not", async () => {
    const empty = tempDir("cli-empty-")
    const port = await freeLoopbackPort()
    const status = await cli(["cli/operator/status.ts"], { DATA_DIR: empty.dir, PORT: String(port) })
    expect(status.code).toBe(1)
    expect(status.stderr).toContain(
      `runs: no server answers at http://127.0.0.1:${port} and DATA_DIR ${empty.dir} holds no catalog`
    )
    expect(status.stderr).toContain("set PORT (or --server) and DATA_DIR to the server's")
    expect(existsSync(join(empty.dir, "catalog.duckdb"))).toBe(false)
    empty.rm()
  })
})
