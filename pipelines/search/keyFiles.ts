import { groupKey } from "../../domain/catalog/modelKey.ts"
import { lines, sqlFileLiteral } from "./fileText.ts"

// How a products sync's key inputs reach the worker thread and their model
// keys come back, as files (rowFiles.ts): DuckDB writes a chunk of numbered
// inputs (COPY ... (FORMAT json), on its own threads), the worker keys each
// line and writes (n, model_key) lines, and DuckDB reads those with
// read_json. Read through the driver and appended back, every input became
// JS objects on the event loop and every key an appender call there: at
// 1M products (~400k inputs) the main thread spent seconds of CPU on it, in
// stretches of tens of milliseconds. The worker imports this file: no Effect here.

/** One numbered input as the worker reads it. */
interface KeyInputLine {
  readonly n: number
  readonly title: string
  readonly gtin: string | null
  readonly color: string | null
  readonly size: string | null
  readonly condition: string | null
}

/**
 * DuckDB's statement writing the inputs numbered in (from, to] of `table`
 * to `file`, one JSON object a line. Literal bounds (our own integers):
 * DuckDB prunes row groups by zone maps only for constants.
 */
export const keyInputsCopySql = (table: string, from: number, to: number, file: string) =>
  `COPY (SELECT n, title, gtin, color, size, condition FROM ${table} WHERE n > ${from} AND n <= ${to})
   TO ${sqlFileLiteral(file)} (FORMAT json)`

/** DuckDB's query of the (n, model_key) rows the worker wrote to `file`. */
export const modelKeysReadSql = (file: string) =>
  `SELECT n, model_key FROM read_json(${sqlFileLiteral(file)}, format = 'newline_delimited',
     columns = {n: 'INTEGER', model_key: 'VARCHAR'})`

/**
 * The worker's side: the model key of every input line of `text` (what
 * keyInputsCopySql wrote), as the lines modelKeysReadSql reads, and how many.
 * Line by line: the chunk's text and its keys are all it holds.
 */
export const modelKeyLines = (text: string) => {
  const keyed: Array<string> = []
  for (const line of lines(text)) {
    const { n, title, gtin, color, size, condition }: KeyInputLine = JSON.parse(line)
    // Well-formed: a key cut inside a surrogate pair becomes U+FFFD, as the
    // driver's UTF-8 conversion made it, not an escape read_json may reject.
    const key = groupKey(gtin, title, { color, size, condition }).toWellFormed()
    keyed.push(JSON.stringify({ n, model_key: key }))
  }
  return { text: keyed.length === 0 ? "" : `${keyed.join("\n")}\n`, keyed: keyed.length }
}
