import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CatalogEvents } from "../../../infra/events/CatalogEvents.ts"
import { SearchEngine } from "../../../infra/SearchEngine.ts"
import { PipelineRunner } from "../../../pipelines/PipelineRunner.ts"
import { PROGRAMS_INDEX } from "../../../readModel/indexes.ts"
import { tempDir } from "../../support/TestService.ts"
import { products, startWithFeeds, tsv } from "../support.ts"

// Feeds run together (start-up, an ingest of every feed): the programmes
// index is synced as soon as the batch's programmes are loaded, while the
// products stage loads, not after every feed of the batch. Seen from the
// products' own load event: the products stage has loaded, the batch has not
// ended (its end waits for this subscriber), and the programmes are already
// in their index.

const samples = join(import.meta.dirname, "..", "..", "..", "data", "samples")
const PROGRAMMES_IN_SAMPLES = 765
const WAIT_MS = 30_000

describe("a batch's programmes index is synced while its products load", () => {
  const files = tempDir("programmes-ahead-")
  const shop = join(files.dir, "shop.tsv")
  let env: Awaited<ReturnType<typeof startWithFeeds>>
  beforeAll(async () => {
    writeFileSync(shop, tsv(products(20)))
    env = await startWithFeeds([
      { name: "nets", kind: "networks", format: "networks-jsonl", location: join(samples, "networks.jsonl") },
      { name: "progs", kind: "programs", format: "programs-jsonl", location: join(samples, "programs.jsonl") },
      { name: "shop", kind: "products", format: "gmc-tsv", location: shop, options: { storeColumn: "custom_label_0" } }
    ])
  })
  afterAll(async () => {
    await env?.close()
    files.rm()
  })

  it("holds the programmes when the products stage's load is announced, before the batch ends", async () => {
    const { documentsWhenProductsLoaded, runs, documentsAfter } = await env.service.run(
      Effect.scoped(
        Effect.gen(function* () {
          const search = yield* SearchEngine
          const programmesInIndex = search
            .use("stats", (client) => client.index(search.indexUid(PROGRAMS_INDEX)).getStats())
            .pipe(
              Effect.map((stats) => stats.numberOfDocuments),
              Effect.orElseSucceed(() => 0)
            )
          // Polls until the programmes are there (or WAIT_MS): before the change, their sync only
          // began at the batch's end, which cannot come while this subscriber holds the products' run.
          const untilProgrammesIndexed = Effect.gen(function* () {
            const deadline = Date.now() + WAIT_MS
            let documents = yield* programmesInIndex
            while (documents < PROGRAMMES_IN_SAMPLES && Date.now() < deadline) {
              yield* Effect.promise(() => new Promise((done) => setTimeout(done, 100)))
              documents = yield* programmesInIndex
            }
            return documents
          })
          let documentsWhenProductsLoaded = -1
          yield* (yield* CatalogEvents).subscribe("test", ({ change }) =>
            change._tag === "Loaded" && change.kind === "products"
              ? Effect.map(untilProgrammesIndexed, (documents) => {
                  documentsWhenProductsLoaded = documents
                })
              : Effect.void
          )
          const runs = yield* (yield* PipelineRunner).runAll("manual")
          return { documentsWhenProductsLoaded, runs, documentsAfter: yield* programmesInIndex }
        })
      )
    )
    expect(runs.map((run) => [run.feed, run.status, run.error])).toEqual([
      ["nets", "succeeded", null],
      ["progs", "succeeded", null],
      ["shop", "succeeded", null]
    ])
    expect(documentsWhenProductsLoaded).toBe(PROGRAMMES_IN_SAMPLES)
    expect(documentsAfter).toBe(PROGRAMMES_IN_SAMPLES)
  }, 120_000)
})
