import { Effect, Exit, Scope } from "effect"
import { join, resolve } from "node:path"
import { meiliDbPath } from "../infra/MeiliPidFile.ts"
import { resolveMeiliBinary, spawnMeili, stopChild } from "../infra/MeiliServer.ts"
import { ensurePortFree, portFrom, refuseHalfMade, runLocalServer } from "./lib/localServer.ts"
import { privateFolder } from "./lib/privateFolder.ts"

// `npm run meili:local`: the bundled Meilisearch as ONE server that several
// service processes share (MEILI_URL), for trying several replicas on one
// machine. Data in data/var/meili-local (0700, kept between runs), loopback
// only, port MEILI_PORT (default 7700), key MEILI_MASTER_KEY (default
// "local-master-key"); prints what to export and runs until Ctrl-C or
// SIGTERM (`exec` in package.json: the signal reaches this process, which
// stops Meilisearch).

const dataDir = resolve("data/var/meili-local")

runLocalServer("meili:local", async () => {
  const port = portFrom("MEILI_PORT", 7700)
  const masterKey = process.env.MEILI_MASTER_KEY ?? "local-master-key"
  await ensurePortFree(port, "MEILI_PORT", "meili:local")
  // Meilisearch writes VERSION into its database folder once it has made it.
  refuseHalfMade(meiliDbPath(dataDir), join(meiliDbPath(dataDir), "VERSION"), "data/var/meili-local")
  privateFolder(dataDir)
  const scope = Effect.runSync(Scope.make())
  const meili = await Effect.runPromise(
    Effect.gen(function* () {
      const binary = yield* resolveMeiliBinary()
      return yield* spawnMeili({ dataDir, masterKey, binary, port })
    }).pipe(Scope.provide(scope))
  )
  console.log(`Meilisearch running at ${meili.url} (data: data/var/meili-local)`)
  console.log(`export MEILI_URL=${meili.url} MEILI_MASTER_KEY=${masterKey}`)
  console.log("Ctrl-C stops it")

  const stop = async () => {
    await Effect.runPromise(stopChild(meili.process))
    await Effect.runPromise(Scope.close(scope, Exit.void))
    process.exit(0)
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
})
