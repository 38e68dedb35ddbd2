// A small RFC 4180 CSV reader for conversion reports (they are small: one
// network's transactions for a day or a month). It keeps every value as text
// (amounts stay exact) and reports the 1-based line where each record starts,
// so rejected rows can be named by line like every other feed.
export interface CsvRecord {
  readonly line: number
  readonly values: Record<string, string>
}

export class CsvError extends Error {}

export const parseCsv = (text: string, delimiter = ","): { header: Array<string>; records: Array<CsvRecord> } => {
  const rows: Array<{ line: number; cells: Array<string> }> = []
  let cells: Array<string> = []
  let cell = ""
  let quoted = false
  let line = 1
  let rowLine = 1
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0 // BOM
  const endRow = () => {
    cells.push(cell)
    if (!(cells.length === 1 && cells[0] === "")) rows.push({ line: rowLine, cells })
    cells = []
    cell = ""
  }
  for (; i < text.length; i++) {
    const char = text[i]
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          cell += '"'
          i++
        } else quoted = false
      } else {
        if (char === "\n") line++
        cell += char
      }
    } else if (char === '"' && cell === "") {
      quoted = true
    } else if (char === delimiter) {
      cells.push(cell)
      cell = ""
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[i + 1] === "\n") i++
      endRow()
      line++
      rowLine = line
    } else {
      cell += char
    }
  }
  if (quoted) throw new CsvError(`unterminated quoted field starting on line ${rowLine}`)
  if (cell !== "" || cells.length > 0) endRow()
  if (rows.length === 0) throw new CsvError("empty file: a header row is required")
  const header = rows[0].cells.map((name) => name.trim())
  const records = rows.slice(1).map(({ line, cells }) => {
    const values: Record<string, string> = {}
    header.forEach((name, index) => {
      values[name] = cells[index] ?? ""
    })
    return { line, values }
  })
  return { header, records }
}
