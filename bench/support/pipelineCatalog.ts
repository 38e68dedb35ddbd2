import { Effect, Layer, ManagedRuntime, References } from "effect"
import { existsSync, mkdirSync, renameSync } from "node:fs"
import { join } from "node:path"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Database } from "../../infra/Database.ts"
import { Metrics } from "../../infra/Metrics.ts"
import { SearchEngine } from "../../infra/SearchEngine.ts"
import { feedDefinition, FeedsConfig } from "../../pipelines/FeedConfig.ts"
import { FeedLoaders } from "../../pipelines/FeedLoaders.ts"
import { FeedSource } from "../../pipelines/FeedSource.ts"
import { PipelineLoaders } from "../../pipelines/layer.ts"
import { PipelineRunner, type RunSummary } from "../../pipelines/PipelineRunner.ts"
import { CatalogPublisher } from "../../pipelines/publish/CatalogPublisher.ts"
import { CatalogEvents } from "../../infra/events/CatalogEvents.ts"
import { SearchFollowsLoads } from "../../pipelines/search/SearchFollowsLoads.ts"
import { SearchSync } from "../../pipelines/search/SearchSync.ts"
import { Staging } from "../../infra/Staging.ts"
import { writeProducts } from "../../scripts/generate-products.ts"
import { selectStores } from "../../scripts/products/stores.ts"

// A generated catalog of N products taken through the real pipeline, for the
// search benchmarks at any size without holding the catalog in memory: the
// feed is streamed to a file, the product loader reads it into DuckDB, and
// SearchSync builds the model documents from DuckDB.

/** The feed's name, so product ids read `bench:<id>`. */
export const BENCH_FEED = "bench"

/** The Google Merchant encodings a bench feed can be written in. */
export type BenchFeedFormat = "gmc-tsv" | "gmc-xml"

/**
 * Editions per model (makeGenerator) for a catalog of N products: one per
 * 5,500 products keeps the samples' ~13 offers per model at any size (without
 * them 1M products form ~540 models of ~1,900 offers each).
 */
export const editionsFor = (products: number) => Math.max(1, Math.round(products / 5_500))

/**
 * Streams N products (seed 7, US, UK and EU stores in one feed, so a model's
 * offers span stores and currencies as in the samples) to a feed file of
 * `format` (gmc-tsv by default, or gmc-xml) under `dir`, once: later runs reuse it.
 */
export const benchFeedFile = async (dir: string, products: number, format: BenchFeedFormat = "gmc-tsv") => {
  mkdirSync(dir, { recursive: true })
  const editions = editionsFor(products)
  const file = join(dir, `${BENCH_FEED}-${products}-e${editions}.${format === "gmc-xml" ? "xml" : "tsv"}`)
  if (!existsSync(file)) {
    const part = `${file}.part`
    await writeProducts({
      format,
      count: products,
      seed: 7,
      out: part,
      stores: selectStores("us,gb,eu"),
      editions
    })
    renameSync(part, file)
  }
  return file
}

export const benchFeed = (file: string) =>
  feedDefinition({
    name: BENCH_FEED,
    kind: "products",
    format: "gmc-tsv",
    location: file,
    options: { storeColumn: "custom_label_0" }
  })

export interface CatalogTarget {
  readonly dataDir: string
  readonly meiliUrl: string
  readonly masterKey: string
  readonly indexPrefix: string
}

/** The pipeline's services over `target` (DuckDB under its data folder, its Meilisearch and index prefix). */
export const pipelineRuntime = (file: string, target: CatalogTarget) =>
  ManagedRuntime.make(
    PipelineRunner.layer.pipe(
      Layer.provideMerge(Layer.mergeAll(PipelineLoaders, SearchFollowsLoads)),
      Layer.provideMerge(
        Layer.mergeAll(
          FeedLoaders.layer,
          FeedSource.layer,
          FeedsConfig.layerWith([benchFeed(file)]),
          CatalogPublisher.layer
        )
      ),
      Layer.provideMerge(SearchSync.layer),
      Layer.provideMerge(Staging.layer),
      Layer.provideMerge(
        Layer.mergeAll(
          Database.layer,
          CatalogEvents.layer,
          SearchEngine.layerFor(target.meiliUrl, target.masterKey, target.indexPrefix),
          Metrics.layer
        )
      ),
      Layer.provideMerge(AppConfig.layerWith({ dataDir: target.dataDir })),
      Layer.provideMerge(Layer.succeed(References.MinimumLogLevel, "Warn"))
    )
  )

/** One pipeline run of the bench feed (fetch, load into DuckDB, search sync); fails unless it succeeded. */
export const ingestCatalog = async (file: string, target: CatalogTarget): Promise<RunSummary> => {
  const runtime = pipelineRuntime(file, target)
  try {
    const summary = await runtime.runPromise(PipelineRunner.use((runner) => runner.run(BENCH_FEED, "manual")))
    if (summary.status !== "succeeded") throw new Error(`pipeline run ${summary.status}: ${summary.error}`)
    return summary
  } finally {
    await runtime.dispose()
  }
}

/** Fetch and load only (no search sync): the catalog in DuckDB, as the runner leaves it before syncing. */
export const loadCatalog = (file: string) =>
  Effect.gen(function* () {
    const feed = benchFeed(file)
    yield* FeedSource.use((source) => source.fetch(feed, "bench-run"))
    return yield* FeedLoaders.use((loaders) =>
      loaders.get("products")!.load({ feed, runId: "bench-run", file, gzip: false, progress: () => {} })
    )
  })
