import { lines, sqlFileLiteral } from "./fileText.ts"

// How the sync cuts model documents into addDocuments calls. A model
// document carries every offer of its model, so a batch is bounded by
// offers and by their bytes as well as by models: 20,000 models of 13
// offers each would be a ~300 MB request body (past Meilisearch's 100 MB
// payload limit, and a 1M catalog of a few hundred models overflowed V8's
// longest string). Bytes, because an offer's size is the feed's to choose:
// 20,000 offers of the longest descriptions a feed may carry (10,000
// characters) are ~200 MB of text, and the sync's worker holds two batches
// several times over while it builds their documents (syncWorkerPool.ts).

/** A model's size in a batch: its offers, and their estimated bytes (offerBytesSql). */
export interface ModelSize {
  readonly offers: number
  readonly bytes: number
}

/** How large a batch (or a chunk, or a read) may grow. */
export interface BatchLimits {
  readonly models: number
  readonly offers: number
  readonly bytes: number
}

/** Models per addDocuments call at most: big enough to amortise HTTP and task overhead. */
export const BATCH_SIZE = 20_000
/** Offers per addDocuments call at most (~1 KB each as JSON): keeps a body near 20-30 MB. */
export const OFFERS_PER_BATCH = 20_000
/**
 * Estimated bytes of offers per addDocuments call at most: 20,000 offers of
 * the generated bench feed (~1.2 KB each, estimated) fit, so a usual feed's
 * batches are cut by offers as before; long descriptions cut them by bytes.
 * The sync worker's heap bound (syncWorkerPool.ts) is set for two of these.
 */
export const BYTES_PER_BATCH = 24 * 1024 * 1024

export const BATCH_LIMITS: BatchLimits = { models: BATCH_SIZE, offers: OFFERS_PER_BATCH, bytes: BYTES_PER_BATCH }

/**
 * An offer's estimated size as the sync reads it (its row's JSON), in SQL
 * over a products row `p`: its text columns, and a fixed allowance for the
 * JSON's keys, numbers and dates (~600 bytes for a row of short fields).
 * An estimate that sizes batches, not a bound on anything.
 */
export const offerBytesSql = (p: string) =>
  `(600 + ${["title", "description", "link", "image_link", "brand", "category", "product_type", "store_domain"]
    .map((column) => `coalesce(strlen(${p}.${column}), 0)`)
    .join(" + ")})::INTEGER`

/** A batch of consecutive models, by 1-based rank: from < rank <= to. */
export interface ModelBatch {
  readonly from: number
  readonly to: number
}

/**
 * Consecutive batches over models of the given sizes (in rank order), each
 * within every limit; a model over the offer or byte limit goes alone.
 */
export const modelBatches = (sizes: ReadonlyArray<ModelSize>, limits: BatchLimits = BATCH_LIMITS) => {
  const batches: Array<ModelBatch> = []
  let from = 0
  let offers = 0
  let bytes = 0
  for (let i = 0; i < sizes.length; i++) {
    const models = i - from
    if (
      models > 0 &&
      (models >= limits.models || offers + sizes[i].offers > limits.offers || bytes + sizes[i].bytes > limits.bytes)
    ) {
      batches.push({ from, to: i })
      from = i
      offers = 0
      bytes = 0
    }
    offers += sizes[i].offers
    bytes += sizes[i].bytes
  }
  if (sizes.length > from) batches.push({ from, to: sizes.length })
  return batches
}

/**
 * Offers per chunk (a rebuild's or a delta's): the rows of a chunk's batches
 * (with their price facts) are built into an in-memory table of their own
 * while the previous chunk is sent. One sort of all 1M rows (~700 MB) spilled
 * past DuckDB's memory limit and kept Meilisearch idle until it was done.
 * Each chunk scans the products table once, so smaller chunks cost CPU,
 * larger ones memory (1M products, bench:search-sync, one run each): 200k
 * rows 1.08x direct and 2,656 MB peak RSS, 100k 1.07x and 2,410 MB, 50k 1.21x
 * (chunks' DuckDB time 29 s vs 19 s) and 2,139 MB. Its bytes are bounded
 * for the same reason a batch's are: two chunk tables sit in DuckDB's memory.
 * Once the rest of the sync held less, building a chunk was where the
 * service's RSS peaked while a 1M feed ran: at 100,000 offers the build's
 * hash table, sort and held results took ~300 MB beside the chunk tables,
 * and the allocator kept what they freed for a moment while the worker built
 * the next batch. 50,000 offers halve that.
 */
export const CHUNK_LIMITS: BatchLimits = {
  models: Number.POSITIVE_INFINITY,
  offers: 50_000,
  bytes: 2.5 * BYTES_PER_BATCH
}

/**
 * A rebuild's first chunk: one batch, so Meilisearch starts indexing after
 * one batch's facts are built (~0.4 s), not a whole chunk's.
 */
export const FIRST_CHUNK_LIMITS: BatchLimits = { ...CHUNK_LIMITS, offers: OFFERS_PER_BATCH, bytes: BYTES_PER_BATCH }

/**
 * Consecutive batches grouped into chunks within `limits` (offers and bytes),
 * the first within `firstLimits` (a batch over them goes alone).
 */
export const batchChunks = (
  batches: ReadonlyArray<ModelBatch>,
  sizes: ReadonlyArray<ModelSize>,
  limits: BatchLimits = CHUNK_LIMITS,
  firstLimits: BatchLimits = limits
): Array<Array<ModelBatch>> => {
  const chunks: Array<Array<ModelBatch>> = []
  let chunk: Array<ModelBatch> = []
  let offers = 0
  let bytes = 0
  for (const batch of batches) {
    let batchOffers = 0
    let batchBytes = 0
    for (let rank = batch.from; rank < batch.to; rank++) {
      batchOffers += sizes[rank].offers
      batchBytes += sizes[rank].bytes
    }
    const bound = chunks.length === 0 ? firstLimits : limits
    if (chunk.length > 0 && (offers + batchOffers > bound.offers || bytes + batchBytes > bound.bytes)) {
      chunks.push(chunk)
      chunk = []
      offers = 0
      bytes = 0
    }
    chunk.push(batch)
    offers += batchOffers
    bytes += batchBytes
  }
  if (chunk.length > 0) chunks.push(chunk)
  return chunks
}

/**
 * DuckDB's statement writing each model's size (rank, offers, bytes) of
 * `ranks` (a row per offer: model_rank, bytes; an offer not to send has
 * no rank) to `file` as CSV: the sync's
 * worker plans the batches from it (batchPlanOf). Read through the driver,
 * every model (75k at 1M products) became a row object on the event loop.
 */
export const modelSizesCopySql = (ranks: string, file: string) =>
  `COPY (SELECT model_rank, count(*)::INTEGER AS offers, sum(bytes)::DOUBLE AS bytes FROM ${ranks}
         WHERE model_rank IS NOT NULL GROUP BY model_rank ORDER BY model_rank)
   TO ${sqlFileLiteral(file)} (FORMAT csv, HEADER false)`

/**
 * The worker's side: the chunks of batches (batchChunks of modelBatches,
 * the first chunk one batch) over the sizes modelSizesCopySql wrote (`text`).
 * Placed by rank, which runs 1..models with no gap.
 */
export const batchPlanOf = (text: string): Array<Array<ModelBatch>> => {
  const sizes: Array<ModelSize> = []
  for (const line of lines(text)) {
    const [rank, offers, bytes] = line.split(",").map(Number)
    sizes[rank - 1] = { offers, bytes }
  }
  for (let i = 0; i < sizes.length; i++)
    if (sizes[i] === undefined) throw new Error(`model sizes: no model ranked ${i + 1} of ${sizes.length}`)
  return batchChunks(modelBatches(sizes), sizes, CHUNK_LIMITS, FIRST_CHUNK_LIMITS)
}
