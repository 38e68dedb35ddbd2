import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { repoRoot } from "../architecture/importGraph.ts"
import { freeLoopbackPort } from "../../infra/freeLoopbackPort.ts"
import { tempDir } from "../support/TestService.ts"

// The README as a newcomer follows it: every ```sh block, in order, in ONE
// shell (so KEY, LINK and SECRET carry from block to block), from the
// checkout. The first block starts the service with `npm start` as written;
// only its address differs (a free port and a temp DATA_DIR, through the
// documented PORT and DATA_DIR), so an example that stops working fails here.
// ```shell blocks (npm ci, commands needing other servers) are shown, not run.

/** The README's ```sh blocks, in order. */
export const shellBlocks = (markdown: string) =>
  [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1])

const folder = tempDir("readme-")
afterAll(() => folder.rm())

// The documented defaults, not the suite's shared servers: the README starts its own Meilisearch.
const {
  MEILI_URL: _u,
  MEILI_MASTER_KEY: _k,
  MEILI_INDEX_PREFIX: _p,
  ADMIN_TOKEN: _t,
  DATABASE_URL: _d,
  ...env
} = process.env

const runScript = (script: string, extraEnv: Record<string, string>, timeoutMs: number) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    // its own process group: the service the script leaves running in the background is stopped with it
    const child = spawn("bash", ["-c", script], {
      cwd: repoRoot,
      env: { ...env, ...extraEnv },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr += chunk))
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), timeoutMs)
    child.on("exit", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })

describe("README", () => {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8")
  const blocks = shellBlocks(readme)

  it("is a front door: under 300 lines, its examples runnable", () => {
    expect(readme.split("\n").length).toBeLessThan(300)
    expect(blocks.length).toBeGreaterThanOrEqual(8)
    expect(blocks[0]).toContain("npm start &")
  })

  it("runs every shell example in order against the service its first example starts", async () => {
    const port = await freeLoopbackPort()
    const dataDir = join(folder.dir, "data")
    const script = [
      "set -euo pipefail",
      // stop the service the first block starts, however the script ends
      "trap 'kill -TERM $(jobs -p) 2>/dev/null; wait' EXIT",
      ...blocks.map(
        (block, i) =>
          `echo "=== block ${i + 1}" >&2\n${block.replaceAll("http://127.0.0.1:3000", `http://127.0.0.1:${port}`)}`
      )
    ].join("\n")
    const run = await runScript(script, { PORT: String(port), DATA_DIR: dataDir }, 280_000)
    const lastBlock = run.stderr.match(/=== block (\d+)/g)?.at(-1)
    expect(run.code, `${lastBlock}\n${run.stderr.slice(-3000)}`).toBe(0)
    const out = run.stdout
    // 3. search answers: price, currency, title per result
    expect(out).toMatch(/^\d+(\.\d+)? [A-Z]{3}  \S/m)
    // 4. a key from the register answer
    expect(out).toMatch(/^ak_[A-Za-z0-9_-]{20,}$/m)
    // 5. a tracking link on this service
    expect(out).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/t/[A-Za-z0-9]{12}$`, "m"))
    // 6. the click: a redirect through the network, counted once
    expect(out).toMatch(/^302 -> https:\/\/www\.awin1\.com\/cread\.php\?awinmid=7050/m)
    expect(out).toContain("clicks 1, unique 1")
    // 7. the signed postback accepted
    expect(out).toContain('"accepted":1,"inserted":1')
    // 8. the partner's 70% of 4.50 GBP, in USD at config/rates.json's rate
    expect(out).toMatch(/^pending 3\.99(00)? USD$/m)
    // operations: the runs table and the conversion just sent, each saying what it read
    expect(out).toMatch(/^run\s+started \(UTC\)\s+feed/m)
    expect(out).toMatch(/awin:T1\s+pending/)
    expect(run.stderr).toContain(`reading server http://127.0.0.1:${port} (admin token from ${dataDir}/admin-token)`)
  }, 300_000)
})
