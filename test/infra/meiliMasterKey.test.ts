import { Effect, Exit, Scope } from "effect"
import { readFileSync } from "node:fs"
import { afterAll, expect, it } from "vitest"
import { meiliProcessesOn } from "../../infra/MeiliPidFile.ts"
import { startMeili } from "../../infra/MeiliServer.ts"
import { tempDir } from "../support/TestService.ts"

// The embedded Meilisearch gets its master key from the environment: a random
// base64url key that began with "-" was read as a flag on the command line and
// Meilisearch refused to start (1 start in 64), and argv is readable by every
// user of the machine.
const folder = tempDir("meili-key-")
const scope = Effect.runSync(Scope.make())
afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  folder.rm()
})

it("starts with a key that begins with '-', enforces it, and keeps it off the command line", async () => {
  const masterKey = "-l" + "k".repeat(30)
  const meili = await Effect.runPromise(startMeili({ dataDir: folder.dir, masterKey }).pipe(Scope.provide(scope)))
  expect((await fetch(`${meili.url}/indexes`)).status).toBe(401)
  const withKey = await fetch(`${meili.url}/indexes`, { headers: { Authorization: `Bearer ${masterKey}` } })
  expect(withKey.status).toBe(200)
  const pids = meiliProcessesOn(folder.dir)
  expect(pids.length).toBe(1)
  const argv = readFileSync(`/proc/${pids[0]}/cmdline`, "utf8")
  expect(argv).toContain("--db-path")
  expect(argv).not.toContain(masterKey)
})
