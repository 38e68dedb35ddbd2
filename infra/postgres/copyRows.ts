import type { RowAppender } from "../Store.ts"

// PostgreSQL's COPY text format: columns split by tabs, rows by newlines,
// NULL as \N. A backslash starts an escape, so backslashes, tabs, newlines and
// carriage returns inside a value are written as \\, \t, \n and \r.
const SPECIAL = /[\\\t\n\r]/g
const ESCAPES: Readonly<Record<string, string>> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" }

export const copyText = (value: string) => value.replace(SPECIAL, (char) => ESCAPES[char])

/** Chunks of about this many characters go to the COPY stream at a time (one write per row costs far more). */
const CHUNK = 1 << 16

/**
 * A RowAppender that encodes rows as COPY text, buffered in memory until the
 * `fill` callback returns (DuckDB's appender is synchronous too).
 */
export class CopyRows implements RowAppender {
  readonly chunks: Array<string> = []
  private pending = ""
  private row: Array<string> = []
  rows = 0

  appendVarchar(value: string) {
    this.row.push(copyText(value))
  }
  appendInteger(value: number) {
    this.row.push(String(value))
  }
  appendBigInt(value: bigint) {
    this.row.push(value.toString())
  }
  // String(Infinity) and String(NaN) are spelt as PostgreSQL reads them.
  appendDouble(value: number) {
    this.row.push(String(value))
  }
  appendBoolean(value: boolean) {
    this.row.push(value ? "t" : "f")
  }
  appendNull() {
    this.row.push("\\N")
  }
  endRow() {
    this.pending += `${this.row.join("\t")}\n`
    this.row = []
    this.rows++
    if (this.pending.length >= CHUNK) this.flushChunk()
  }
  /** The encoded rows; a row begun but not ended is an error, as on DuckDB. */
  finish(): ReadonlyArray<string> {
    if (this.row.length > 0) throw new Error("append: the last row was not ended with endRow()")
    this.flushChunk()
    return this.chunks
  }
  private flushChunk() {
    if (this.pending.length > 0) this.chunks.push(this.pending)
    this.pending = ""
  }
}
