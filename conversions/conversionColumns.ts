import { NullableNumber, NullableText, Text } from "../infra/columns.ts"

// Columns of the conversions table that the ledger and the operator reads
// decode alike. Money leaves DuckDB as text (::VARCHAR), so it stays exact.

export const attributionColumns = {
  click_ref: NullableText,
  tracking_id: NullableText,
  partner_id: NullableNumber,
  tag: NullableText
}

export const moneyColumns = {
  currency: Text,
  order_amount: Text,
  commission: Text,
  reporting_currency: Text,
  commission_reporting: Text,
  order_amount_reporting: Text,
  revenue_share: NullableText,
  partner_share: Text,
  platform_share: Text
}
