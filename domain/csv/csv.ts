// CSV as RFC 4180 writes it (CRLF line ends; a field holding a comma, a
// double quote, CR or LF is quoted, its quotes doubled), guarded against
// formula injection: a spreadsheet runs a cell starting with =, +, -, @, tab
// or CR as a formula, so such a text (a link name a partner typed, a URL) is
// prefixed with an apostrophe, which spreadsheets show as text. Numbers
// (-12.5000 included) are left as they are, so they stay numbers.

const NUMBER = /^-?\d+(\.\d+)?$/
const FORMULA_START = /^[=+\-@\t\r]/
const NEEDS_QUOTES = /[",\r\n]/

export type CsvValue = string | number | boolean | null

/** One field, escaped and guarded. null is the empty field. */
export const csvField = (value: CsvValue): string => {
  if (value === null) return ""
  const text = String(value)
  const guarded = FORMULA_START.test(text) && !NUMBER.test(text) ? `'${text}` : text
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded
}

/** A whole document: the header row, then the rows, every line ended by CRLF. */
export const csvDocument = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<CsvValue>>): string =>
  [header, ...rows].map((row) => `${row.map(csvField).join(",")}\r\n`).join("")
