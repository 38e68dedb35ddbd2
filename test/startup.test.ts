import { Context, Effect, Exit, Layer, Scope } from "effect"
import { spawn } from "node:child_process"
import { statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { HttpServer } from "effect/http"
import { afterAll, describe, expect, inject, it } from "vitest"
import { AppConfig, type AppConfigShape } from "../infra/AppConfig.ts"
import { Database } from "../infra/Database.ts"
import { freeLoopbackPort } from "../infra/freeLoopbackPort.ts"
import { CatalogReadiness } from "../pipelines/CatalogReadiness.ts"
import { PipelineRunner } from "../pipelines/PipelineRunner.ts"
import { SearchSync } from "../pipelines/search/SearchSync.ts"
import { SearchEngine } from "../infra/SearchEngine.ts"
import { PRODUCTS_INDEX } from "../readModel/indexes.ts"
import { productSettings, settingsHash } from "../readModel/settings.ts"
import { makeService } from "../service.ts"
import { products, tsv, writeFeeds } from "./pipelines/support.ts"
import { tempDir, testConfig } from "./support/TestService.ts"

// Start-up and shutdown of the whole service: a broken feed config stops it,
// an empty catalog is ingested in the background while /ready says so, and a shutdown in
// the middle of a run rolls the run back.

const files = tempDir("startup-")
afterAll(() => files.rm())

/** The service on a data folder that outlives it (unlike startService), so a second start can reopen it. */
const boot = async (config: AppConfigShape) => {
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(Layer.buildWithScope(makeService(Layer.succeed(AppConfig, config)), scope))
  return {
    run: <A, E>(effect: Effect.Effect<A, E, any>) =>
      Effect.runPromise(Effect.provide(effect, context) as Effect.Effect<A, E>),
    close: () => Effect.runPromise(Scope.close(scope, Exit.void)),
    context
  }
}

const readDb = async <T>(dataDir: string, sql: string) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const db = yield* Database.make(join(dataDir, "catalog.duckdb"))
        return yield* db.query<T>(sql)
      })
    )
  )

describe("start-up and shutdown", () => {
  it("refuses to start with a broken feed config, naming the feed and the field", async () => {
    const path = writeFeeds(files.dir, [{ name: "shop", kind: "products", format: "gmc-csv", location: "x.tsv" }])
    const data = tempDir("broken-")
    await expect(boot(testConfig(data.dir, { feedsConfigPath: path }))).rejects.toMatchObject({
      _tag: "FeedConfigError",
      message: expect.stringContaining('feed "shop" field format: must be one of gmc-tsv, gmc-xml, awin-csv')
    })
    // and `npm start` (main.ts) exits non-zero with that message
    const port = await freeLoopbackPort()
    const child = spawn(process.execPath, ["main.ts"], {
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: data.dir,
        FEEDS_CONFIG: path,
        MEILI_URL: inject("meiliUrl"),
        MEILI_MASTER_KEY: inject("meiliKey"),
        MEILI_INDEX_PREFIX: "broken_"
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve))
    data.rm()
    expect(code).not.toBe(0)
    expect(output).toMatch(/feed \\?"shop\\?" field format: must be one of/)
  })

  it("ingests every feed in the background when the catalog is empty (serving /health meanwhile), not when it has data; writes the admin token file", async () => {
    const data = tempDir("first-")
    const file = join(files.dir, "first.tsv")
    // big enough that the ingest is still running when the first requests arrive
    writeFileSync(file, tsv(products(10_000)))
    const config = testConfig(data.dir, {
      ingestOnStart: true,
      feedsConfigPath: writeFeeds(files.dir, [
        { name: "first", kind: "products", format: "gmc-tsv", location: file, options: { store: "F" } }
      ])
    })
    const first = await boot(config)
    // The server listens before the first ingest ends: /health answers, /ready says "ingesting".
    const address = Context.get(first.context, HttpServer.HttpServer).address
    const base = `http://127.0.0.1:${address._tag === "UnixPathAddress" ? 0 : address.port}`
    expect((await fetch(`${base}/health`)).status).toBe(200)
    const ready = await fetch(`${base}/ready`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toMatchObject({ error: { code: "ingesting", details: { catalog: false } } })
    await first.run(CatalogReadiness.use((readiness) => readiness.awaitReady))
    expect((await fetch(`${base}/ready`)).status).toBe(200)
    const runs = await first.run(
      Database.use((db) => db.query<{ trigger: string; status: string }>("SELECT trigger, status FROM pipeline_runs"))
    )
    expect(runs).toEqual([{ trigger: "startup", status: "succeeded" }])
    expect(statSync(join(data.dir, "admin-token")).mode & 0o777).toBe(0o600)
    await first.close()
    const second = await boot(config)
    expect(await second.run(Database.use((db) => db.query("SELECT trigger FROM pipeline_runs")))).toHaveLength(1)
    await second.close()
    data.rm()
  })

  it("rebuilds a products index an earlier release built (other document shape) at start, without a feed run", async () => {
    const data = tempDir("upgrade-")
    const file = join(files.dir, "upgrade.tsv")
    writeFileSync(file, tsv(products(50)))
    const config = testConfig(data.dir, {
      ingestOnStart: true,
      feedsConfigPath: writeFeeds(files.dir, [
        { name: "upgrade", kind: "products", format: "gmc-tsv", location: file, options: { store: "U" } }
      ])
    })
    const first = await boot(config)
    await first.run(CatalogReadiness.use((readiness) => readiness.awaitReady))
    const createdAt = (service: Awaited<ReturnType<typeof boot>>) =>
      service.run(
        SearchEngine.use((search) =>
          search.use("index", (client) => client.getRawIndex(search.indexUid(PRODUCTS_INDEX)))
        ).pipe(Effect.map((index) => new Date(index.createdAt).getTime()))
      )
    const built = await createdAt(first)
    expect(await first.run(SearchSync.use((sync) => sync.productsIndexOutdated))).toBe(false)
    await first.close()
    // what the release before offer rows recorded: its settings hash, no document version
    await readDb(
      data.dir,
      `UPDATE search_sync_state SET hash = '${settingsHash(productSettings)}' WHERE index_name = 'products:settings'`
    )
    const second = await boot(config)
    for (let i = 0; i < 100 && (await second.run(SearchSync.use((sync) => sync.productsIndexOutdated))); i++)
      await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await second.run(SearchSync.use((sync) => sync.productsIndexOutdated))).toBe(false)
    expect(await createdAt(second)).toBeGreaterThan(built)
    // no feed ran again: the index was rebuilt from the catalog already loaded
    expect(await second.run(Database.use((db) => db.query("SELECT trigger FROM pipeline_runs")))).toHaveLength(1)
    await second.close()
    data.rm()
  })

  it("interrupts a run in flight at shutdown: the transaction rolls back and the run is recorded as interrupted", async () => {
    const data = tempDir("shutdown-")
    const file = join(files.dir, "big.tsv")
    writeFileSync(file, tsv(products(1000, 0, "10.00 USD")))
    const config = testConfig(data.dir, {
      feedsConfigPath: writeFeeds(files.dir, [
        { name: "big", kind: "products", format: "gmc-tsv", location: file, options: { store: "B" } }
      ])
    })
    const service = await boot(config)
    expect((await service.run(PipelineRunner.use((r) => r.run("big", "manual")))).status).toBe("succeeded")
    writeFileSync(file, tsv(products(60_000, 0, "20.00 USD")))
    await service.run(
      Effect.gen(function* () {
        const runner = yield* PipelineRunner
        yield* runner.start("big", "manual")
        while (runner.live()[0]?.phase !== "load") yield* Effect.sleep("5 millis")
        yield* Effect.sleep("100 millis")
      })
    )
    await service.close()

    const products_ = await readDb<{ n: bigint; price: string }>(
      data.dir,
      "SELECT count(*) AS n, max(price)::VARCHAR AS price FROM products WHERE feed = 'big'"
    )
    expect(products_).toEqual([{ n: 1000n, price: "10.0000" }])
    const last = await readDb<{ status: string }>(
      data.dir,
      "SELECT status FROM pipeline_runs ORDER BY started_at DESC LIMIT 1"
    )
    expect(last).toEqual([{ status: "interrupted" }])
    data.rm()
  })
})
