// The columns every product format is staged in: Google Merchant's names,
// every value a string or null (empty strings are staged as NULL). A module of
// its own, with no imports, because the XML staging worker (xmlStagingWorker.ts)
// loads it: a worker thread pays for every module it loads.

export const STAGED_COLUMNS = [
  "id",
  "title",
  "description",
  "link",
  "image_link",
  "brand",
  "gtin",
  "mpn",
  "product_type",
  "google_product_category",
  "category",
  "store",
  "price",
  "sale_price",
  "sale_price_effective_date",
  "availability",
  "condition",
  "was_price",
  "currency",
  // variant attributes: which colour/size of a model this row is, and the
  // merchant's id for the set of variants (a grouping hint, per store)
  "color",
  "size",
  "item_group_id",
  // who the product is for, as Google Merchant names it (male/female/unisex;
  // newborn/infant/toddler/kids/adult): search reads recipients and ages with them
  "gender",
  "age_group",
  // where the store ships it (Google Merchant shipping: "US:CA:Overnight:16.00 USD"
  // groups separated by commas in TSV; the country of each nested g:shipping in XML):
  // the offer's selling countries
  "shipping"
] as const

export type StagedColumn = (typeof STAGED_COLUMNS)[number]
export type StagedRecord = { [K in StagedColumn]: string | null }
