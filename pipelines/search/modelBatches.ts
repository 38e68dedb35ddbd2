// How the sync cuts model documents into addDocuments calls. A model
// document carries every offer of its model, so a batch is bounded by
// offers as well as by models: 20,000 models of 13 offers each would be a
// ~300 MB request body (past Meilisearch's 100 MB payload limit, and a 1M
// catalog of a few hundred models overflowed V8's longest string).

/** Models per addDocuments call at most: big enough to amortise HTTP and task overhead. */
export const BATCH_SIZE = 20_000
/** Offers per addDocuments call at most (~1 KB each as JSON): keeps a body near 20-30 MB. */
export const OFFERS_PER_BATCH = 20_000

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
