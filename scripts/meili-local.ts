import { Effect, Exit, Scope } from "effect"
import { resolve } from "node:path"
import { resolveMeiliBinary, spawnMeili, stopChild } from "../infra/MeiliServer.ts"

// `npm run meili:local`: the bundled Meilisearch as ONE server that several
// service processes share (MEILI_URL), for trying several replicas on one
// machine. Data in data/var/meili-local (kept between runs), loopback only,
// port MEILI_PORT (default 7700), key MEILI_MASTER_KEY (default
// "local-master-key"); prints what to export and runs until Ctrl-C.

const port = Number(process.env.MEILI_PORT ?? "7700")
const masterKey = process.env.MEILI_MASTER_KEY ?? "local-master-key"
const scope = Effect.runSync(Scope.make())
const meili = await Effect.runPromise(
  Effect.gen(function* () {
    const binary = yield* resolveMeiliBinary()
    return yield* spawnMeili({ dataDir: resolve("data/var/meili-local"), masterKey, binary, port })
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
