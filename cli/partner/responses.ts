import type { ProgramItem } from "../../api/v1/catalog/Api.ts"

// How `aff` shows parts of the API's answers. The answers' types are the
// contract's (contract.ts decodes every one with its endpoint's schema);
// money arrives as exact decimal strings and stays a string.

/** The /api/v1 list convention: `{ data, pagination: { limit, offset, total, next_offset } }`. */
export interface PageView {
  readonly data: ReadonlyArray<unknown>
  readonly pagination: {
    readonly limit: number
    readonly offset: number
    readonly total: number
    readonly next_offset: number | null
  }
}

/** "CPS 4%" for a percentage, "CPA 12.50 EUR" for a fixed amount per action. */
export const commissionText = (program: typeof ProgramItem.Type) => {
  const rate = program.commission_rate.replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "")
  return program.commission_type === "CPS"
    ? `${program.commission_type} ${rate}%`
    : `${program.commission_type} ${rate}${program.commission_currency ? ` ${program.commission_currency}` : ""}`
}

/** "Showing 21-40 of 143. Next page: --offset 40 --limit 20" under a list table. */
export const pageFooter = (page: PageView): string => {
  const { limit, next_offset, offset, total } = page.pagination
  if (page.data.length === 0) return offset > 0 ? `Nothing at offset ${offset}.` : ""
  const range = `${offset + 1}-${offset + page.data.length} of ${total.toLocaleString("en-US")}.`
  return next_offset === null
    ? `Showing ${range}`
    : `Showing ${range} Next page: --offset ${next_offset} --limit ${limit}`
}

/** A list table with its page footer underneath (no footer for an empty first page). */
export const withPageFooter = (table: string, page: PageView): string => {
  const footer = pageFooter(page)
  return footer.length > 0 ? `${table}\n${footer}` : table
}
