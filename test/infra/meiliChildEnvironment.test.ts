import { Effect, Exit, Scope } from "effect"
import { mkdirSync, readFileSync, statSync } from "node:fs"
import { totalmem } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import { meiliProcessesOn } from "../../infra/MeiliPidFile.ts"
import { indexingMemoryBytes, meiliEnvironment, startMeili } from "../../infra/MeiliServer.ts"
import { tempDir } from "../support/TestService.ts"

// The embedded Meilisearch runs in production mode and sees only the
// environment it needs: it used to inherit the whole service environment
// (ADMIN_TOKEN, POSTBACK_SECRETS, network tokens, the LLM key) and to run
// with --env development.
const folder = tempDir("meili-env-")
const scope = Effect.runSync(Scope.make())
const SECRETS = {
  ADMIN_TOKEN: "admin-token-that-must-stay-home",
  POSTBACK_SECRETS: '{"awin":"postback-secret-that-must-stay-home"}',
  AWIN_API_TOKEN: "network-token-that-must-stay-home",
  LLM_API_KEY: "llm-key-that-must-stay-home",
  DATABASE_URL: "postgres://user:db-password-that-must-stay-home@127.0.0.1/db"
}
const saved = Object.fromEntries(Object.keys(SECRETS).map((name) => [name, process.env[name]]))
afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  await Effect.runPromise(Scope.close(scope, Exit.void))
  folder.rm()
})

const environOf = (pid: number) =>
  new Map(
    readFileSync(`/proc/${pid}/environ`, "utf8")
      .split("\0")
      .filter((entry) => entry !== "")
      .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)])
  )

it("starts in production mode with a minimal environment, in a 0700 data folder", async () => {
  Object.assign(process.env, SECRETS, { MEILI_MAX_INDEXING_THREADS: "1" })
  const dataDir = join(folder.dir, "meili")
  mkdirSync(dataDir, { mode: 0o777 })
  const masterKey = "m".repeat(32)
  const meili = await Effect.runPromise(startMeili({ dataDir, masterKey }).pipe(Scope.provide(scope)))
  const [pid] = meiliProcessesOn(dataDir)
  expect(pid).toBeDefined()

  const environ = environOf(pid!)
  for (const [name, value] of Object.entries(SECRETS)) {
    expect(environ.has(name), name).toBe(false)
    expect(
      [...environ.values()].some((v) => v.includes(value)),
      name
    ).toBe(false)
  }
  expect(environ.get("MEILI_MASTER_KEY")).toBe(masterKey)
  expect(environ.get("MEILI_MAX_INDEXING_THREADS")).toBe("1") // the operator's Meilisearch tuning still reaches it
  // its indexing memory bounded unless the operator says otherwise (Meilisearch's own default cost seconds a batch)
  expect(environ.get("MEILI_MAX_INDEXING_MEMORY")).toBe(String(indexingMemoryBytes(totalmem())))
  expect(environ.has("PATH")).toBe(true)
  expect([...environ.keys()].every((name) => /^(PATH|HOME|TMPDIR|LANG|LC_ALL|TZ|MEILI_.+)$/.test(name))).toBe(true)

  const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")
  expect(argv[argv.indexOf("--env") + 1]).toBe("production")
  // production: every route needs the key, the search dashboard is gone
  expect((await fetch(`${meili.url}/indexes`)).status).toBe(401)
  const withKey = await fetch(`${meili.url}/indexes`, { headers: { authorization: `Bearer ${masterKey}` } })
  expect(withKey.status).toBe(200)
  expect((statSync(dataDir).mode & 0o777).toString(8)).toBe("700")
})

it("bounds the embedded Meilisearch's indexing memory to 1 GiB, less on a small machine, unless the operator sets it", () => {
  expect(indexingMemoryBytes(24 * 1024 ** 3)).toBe(1024 ** 3)
  expect(indexingMemoryBytes(1024 ** 3)).toBe(Math.floor((2 * 1024 ** 3) / 3))
  expect(meiliEnvironment({ MEILI_MAX_INDEXING_MEMORY: "4Gb" }, "k".repeat(32)).MEILI_MAX_INDEXING_MEMORY).toBe("4Gb")
  expect(meiliEnvironment({}, "k".repeat(32)).MEILI_MAX_INDEXING_MEMORY).toBe(String(indexingMemoryBytes(totalmem())))
})
