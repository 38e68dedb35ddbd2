// The names a products sync works with: its scratch tables and its rows of
// `search_sync_state`. One list, because the keying SQL (productModels.ts),
// the sender (modelSender.ts) and the sync policy (SearchSync.ts) all read
// and write the same tables.

/**
 * The sync's scratch tables live in an in-memory database attached beside the
 * catalog for the sync's length: never written to the catalog file, its WAL
 * or its checkpoints. Copying the 1M-row products table into a table of the
 * catalog file took 6.3 s, into memory 1.1 s (DuckDB, one thread); a chunk's
 * sort 1.9 s vs 0.85 s. What passes DuckDB's memory limit spills to its temp
 * directory as before.
 */
export const WORK_DB = "search_sync_work"
export const WORK_TABLE = `${WORK_DB}.products`
export const KEYS_TABLE = `${WORK_DB}.keys`
/** The distinct key inputs, numbered (n) for reading chunk by chunk. */
export const NUMBERED_INPUTS_TABLE = `${WORK_DB}.numbered_inputs`
/** Each numbered input's model key (n, model_key), read from the worker's files chunk by chunk. */
export const INPUT_NUMBER_KEYS_TABLE = `${WORK_DB}.input_number_keys`
/** The key inputs with their model keys. */
export const INPUT_KEYS_TABLE = `${WORK_DB}.input_keys`
export const AFFECTED_TABLE = `${WORK_DB}.affected`
/**
 * A delta's products (model_id, model_rank, id, feed, hash, bytes), one row
 * each; model_rank is set for the offers of the models to send, null for the rest.
 */
export const MODELS_TABLE = `${WORK_DB}.models`
export const CHUNK_TABLE = `${WORK_DB}.chunk`
// A rebuild's tables, narrow: in memory they stay resident, and a wide
// 1M-row table of keys (model id and key per product) held ~140 MB more.
/** A rebuild's models: model_rank, model_id, model_key (one row per model). */
export const RANKED_MODELS_TABLE = `${WORK_DB}.ranked_models`
/** A rebuild's products: id, model_rank, bytes (modelBatches.ts offerBytesSql). */
export const PRODUCT_RANKS_TABLE = `${WORK_DB}.product_ranks`
/** A rebuild's sent offers (id, feed, hash, model_rank), gathered chunk by chunk for the sync state. */
export const SENT_TABLE = `${WORK_DB}.sent`
/** The prefix of the scratch tables earlier releases kept in the catalog itself (dropped if a killed sync left any). */
export const LEGACY_WORK_PREFIX = "search_sync_work_"
/** Sync state of each product (its hash and model, as 'hash:model id'); `products` rows are per model. */
export const OFFERS_STATE = "products:offers"
