/** Logical index names; the uid adds MEILI_INDEX_PREFIX (SearchEngine.indexUid). */
export const PRODUCTS_INDEX = "products"
export const PROGRAMS_INDEX = "programs"
