// The columns of the partner export (PartnerExport.ts), apart from its queries
// so the API contract can name them without loading the store.
export const EXPORT_HEADER = [
  "record",
  "date",
  "tracking_id",
  "link_name",
  "clicks",
  "unique_clicks",
  "bot_clicks",
  "conversion_id",
  "kind",
  "status",
  "event_at",
  "partner_share",
  "currency"
] as const
