// How the sync cuts model documents into addDocuments calls. A model
// document carries every offer of its model, so a batch is bounded by
// offers as well as by models: 20,000 models of 13 offers each would be a
// ~300 MB request body (past Meilisearch's 100 MB payload limit, and a 1M
// catalog of a few hundred models overflowed V8's longest string).

/** Models per addDocuments call at most: big enough to amortise HTTP and task overhead. */
export const BATCH_SIZE = 20_000
/** Offers per addDocuments call at most (~1 KB each as JSON): keeps a body near 20-30 MB. */
export const OFFERS_PER_BATCH = 20_000

/**
 * Offers read from DuckDB at a time within a batch: the driver turns a read's
 * rows into JS strings on the event loop (20k rows: ~65 ms of its CPU, 5k
 * rows ~16 ms), so a batch is read in parts.
 */
export const OFFERS_PER_READ = 5_000

/** A batch of consecutive models, by 1-based rank: from < rank <= to. */
export interface ModelBatch {
  readonly from: number
  readonly to: number
}

/**
 * Consecutive batches over models of the given offer counts (in rank order),
 * each within both limits; a model over the offer limit goes alone.
 */
export const modelBatches = (
  offersPerModel: ReadonlyArray<number>,
  maxModels = BATCH_SIZE,
  maxOffers = OFFERS_PER_BATCH
): Array<ModelBatch> => {
  const batches: Array<ModelBatch> = []
  let from = 0
  let offers = 0
  for (let i = 0; i < offersPerModel.length; i++) {
    const models = i - from
    if (models > 0 && (models >= maxModels || offers + offersPerModel[i] > maxOffers)) {
      batches.push({ from, to: i })
      from = i
      offers = 0
    }
    offers += offersPerModel[i]
  }
  if (offersPerModel.length > from) batches.push({ from, to: offersPerModel.length })
  return batches
}

/**
 * Offers per chunk of a rebuild: the rows of a chunk's batches (with their
 * price facts) are built into an in-memory table of their own while the
 * previous chunk is sent. One sort of all 1M rows (~700 MB) spilled past
 * DuckDB's memory limit and kept Meilisearch idle until it was done. Each
 * chunk scans the products table once, so smaller chunks cost CPU, larger
 * ones memory (1M products, bench:search-sync, one run each): 200k rows
 * 1.08x direct and 2,656 MB peak RSS, 100k 1.07x and 2,410 MB, 50k 1.21x
 * (chunks' DuckDB time 29 s vs 19 s) and 2,139 MB.
 */
export const OFFERS_PER_CHUNK = 100_000

/**
 * Offers of a rebuild's first chunk: one batch, so Meilisearch starts indexing
 * after one batch's facts are built (~0.4 s), not a whole chunk's.
 */
export const OFFERS_IN_FIRST_CHUNK = OFFERS_PER_BATCH

/**
 * Consecutive batches grouped into chunks of at most `maxOffers` offers, the
 * first of at most `firstMaxOffers` (a batch over the limit goes alone).
 */
export const batchChunks = (
  batches: ReadonlyArray<ModelBatch>,
  offersPerModel: ReadonlyArray<number>,
  maxOffers = OFFERS_PER_CHUNK,
  firstMaxOffers = maxOffers
): Array<Array<ModelBatch>> => {
  const chunks: Array<Array<ModelBatch>> = []
  let chunk: Array<ModelBatch> = []
  let offers = 0
  for (const batch of batches) {
    let size = 0
    for (let rank = batch.from; rank < batch.to; rank++) size += offersPerModel[rank]
    if (chunk.length > 0 && offers + size > (chunks.length === 0 ? firstMaxOffers : maxOffers)) {
      chunks.push(chunk)
      chunk = []
      offers = 0
    }
    chunk.push(batch)
    offers += size
  }
  if (chunk.length > 0) chunks.push(chunk)
  return chunks
}
