import { Context, Effect, Exit, Layer, Scope } from "effect"
import { HttpServer } from "effect/http"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { DiscoverySearch } from "../../discovery/DiscoverySearch.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { makeService } from "../../service.ts"
import { products, tsv, writeFeeds } from "../pipelines/support.ts"
import { getJson } from "../support/http.ts"
import { tempDir, testConfig } from "../support/TestService.ts"

// Ready means ready: /ready turns 200 only once the search vocabulary (the
// index's category and brand names) is loaded, so the first search after it
// reads a phrase exactly as every later one does.

const files = tempDir("ready-vocabulary-")
afterAll(() => files.rm())

describe("/ready and the search vocabulary", () => {
  it("turns 200 only after the vocabulary is loaded: the first search reads the brand and category like a later one", async () => {
    const data = tempDir("ready-vocabulary-data-")
    const file = join(files.dir, "first.tsv")
    // every product: brand Acme, product type Electronics > Audio (test/pipelines/support.ts)
    writeFileSync(file, tsv(products(300)))
    const config = testConfig(data.dir, {
      ingestOnStart: true,
      feedsConfigPath: writeFeeds(files.dir, [
        { name: "first", kind: "products", format: "gmc-tsv", location: file, options: { store: "F" } }
      ])
    })
    const scope = Effect.runSync(Scope.make())
    const context = await Effect.runPromise(Layer.buildWithScope(makeService(Layer.succeed(AppConfig, config)), scope))
    try {
      const address = Context.get(context, HttpServer.HttpServer).address
      const base = `http://127.0.0.1:${address._tag === "UnixPathAddress" ? 0 : address.port}`
      let ready = await getJson(`${base}/ready`)
      for (let i = 0; i < 600 && ready.status !== 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        ready = await getJson(`${base}/ready`)
      }
      expect(ready.status).toBe(200)
      expect(ready.body.checks).toMatchObject({ catalog: true, vocabulary: true })

      const phrase = "/api/search?q=acme%20audio"
      const first = await getJson(`${base}${phrase}`)
      await Effect.runPromise(
        Effect.provide(
          DiscoverySearch.use((search) => search.refreshVocabulary),
          context
        )
      )
      const later = await getJson(`${base}${phrase}`)
      expect(first.status).toBe(200)
      expect(later.body.guidance).toMatch(/brand: Acme/)
      expect(first.body.guidance).toBe(later.body.guidance)
      expect(first.body.results.map((r: { id: string }) => r.id)).toEqual(
        later.body.results.map((r: { id: string }) => r.id)
      )
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      data.rm()
    }
  }, 120_000)
})
