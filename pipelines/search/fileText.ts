// What the sync's files (rowFiles.ts) share on both sides: their names in
// DuckDB's SQL, and their text read line by line in the worker. The worker
// imports this file: no Effect here.

/** `file` as a SQL string literal, for COPY ... TO and read_json. */
export const sqlFileLiteral = (file: string) => `'${file.replaceAll("'", "''")}'`

/** The non-empty lines of a file's text (one JSON object or CSV row each), without their newline, in order. */
export function* lines(text: string): Generator<string> {
  for (let start = 0; start < text.length;) {
    const newline = text.indexOf("\n", start)
    const end = newline === -1 ? text.length : newline
    if (end > start) yield text.slice(start, end)
    start = end + 1
  }
}

/**
 * The non-empty lines of a file's bytes (UTF-8), each decoded on its own: a
 * batch's rows are never one string (one character past Latin-1 makes a
 * string two bytes a character, twice the file's size on the heap). A
 * newline byte is never part of a longer UTF-8 character.
 */
export function* byteLines(bytes: Buffer): Generator<string> {
  for (let start = 0; start < bytes.length;) {
    const newline = bytes.indexOf(10, start)
    const end = newline === -1 ? bytes.length : newline
    if (end > start) yield bytes.toString("utf8", start, end)
    start = end + 1
  }
}
