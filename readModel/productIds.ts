import { modelDocumentId } from "./modelDocuments.ts"

// A product model's public id: "prod_" and its index document id (the md5 of
// its group key). It names the model whatever offer a search shows for it,
// so every query reaching one model answers one id; offer (variant) ids are
// the offers' own document ids.

export const PRODUCT_PREFIX = "prod_"

export const productIdOf = (groupKey: string) => `${PRODUCT_PREFIX}${modelDocumentId(groupKey)}`

/** The model document id a product id names, or undefined when `id` is not one. */
export const modelIdOf = (id: string) => {
  const match = /^prod_([0-9a-f]{32})$/.exec(id)
  return match === null ? undefined : match[1]
}
