import { Effect } from "effect"
import { XMLParser } from "fast-xml-parser"
import { createReadStream } from "node:fs"
import { createGunzip } from "node:zlib"
import type { DatabaseShape } from "../../infra/Database.ts"
import { PipelineError } from "../errors.ts"
import type { FeedDefinition } from "../FeedConfig.ts"
import { STAGED_COLUMNS, type StagedRecord } from "./ProductRecord.ts"
import type { Staged } from "./stageDelimited.ts"

// Google Merchant RSS 2.0 (xmlns:g). The file is streamed: the text is cut
// into <item>...</item> slices as it arrives and each slice is parsed on its
// own, so memory holds one chunk and one batch, never the document (a
// 1M-item feed is ~1 GB of XML). Items land in the same staging table shape
// as the delimited formats, so validation and loading are shared. A file that
// stops inside an item, or never closes </rss>, is truncated: the run fails.

const BATCH = 5_000

const itemParser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: true
})

const firstText = (value: unknown): string | null => {
  if (Array.isArray(value)) return firstText(value[0])
  if (typeof value === "string") return value.trim() === "" ? null : value.trim()
  if (typeof value === "number") return String(value)
  if (value !== null && typeof value === "object" && "#text" in value) return firstText((value as { "#text": unknown })["#text"])
  return null
}

/** One <item> slice to a staged record: `g:price` and `price` both stage as `price`. */
export const itemToRecord = (xml: string): StagedRecord => {
  const parsed = itemParser.parse(xml) as { item?: Record<string, unknown> }
  const fields: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(parsed.item ?? {})) {
    const name = key.replace(/^g:/, "")
    if (!(name in fields) || key.startsWith("g:")) fields[name] = value
  }
  const record = {} as StagedRecord
  for (const column of STAGED_COLUMNS) record[column] = firstText(fields[column])
  record.category = null
  record.was_price = null
  record.currency = null
  return record
}

const ITEM_OPEN = /<item[\s>]/

export const stageXml = (
  db: DatabaseShape,
  feed: FeedDefinition,
  file: string,
  gzip: boolean,
  table: string,
  progress: (rows: number) => void
): Effect.Effect<Staged, PipelineError> => {
  const parseError = (message: string) => new PipelineError({ feed: feed.name, stage: "parse", message })
  const flush = (batch: Array<StagedRecord>) =>
    db.append(table, (appender) => {
      for (const record of batch) {
        for (const column of STAGED_COLUMNS) {
          const value = record[column]
          if (value === null) appender.appendNull()
          else appender.appendVarchar(value)
        }
        appender.endRow()
      }
    })
  return Effect.gen(function*() {
    yield* db.run(`CREATE OR REPLACE TABLE ${table} (${STAGED_COLUMNS.map((c) => `${c} VARCHAR`).join(", ")})`)
    const count = yield* Effect.tryPromise({
      try: async (signal) => {
        const raw = createReadStream(file, { highWaterMark: 1 << 20 })
        const stream = gzip ? raw.pipe(createGunzip()) : raw
        stream.setEncoding("utf8")
        let buffer = ""
        let items = 0
        let sawRss = false
        let closed = false
        let batch: Array<StagedRecord> = []
        for await (const chunk of stream as AsyncIterable<string>) {
          if (signal.aborted) throw new Error("interrupted")
          buffer += chunk
          if (!sawRss) {
            if (/<rss[\s>]|<channel[\s>]/.test(buffer)) sawRss = true
            else if (buffer.length > 64 * 1024) throw parseError("not an RSS feed: no <rss> or <channel> element")
          }
          let start = buffer.search(ITEM_OPEN)
          while (start >= 0) {
            const end = buffer.indexOf("</item>", start)
            if (end < 0) break
            const record = itemToRecord(buffer.slice(start, end + 7))
            record.store ??= feed.options.store ?? null
            batch.push(record)
            items++
            buffer = buffer.slice(end + 7)
            start = buffer.search(ITEM_OPEN)
          }
          if (start < 0) {
            // keep a tail in case "<item" is split across chunks
            closed = closed || /<\/rss>|<\/channel>/.test(buffer)
            buffer = buffer.slice(-16)
          }
          if (batch.length >= BATCH) {
            await Effect.runPromise(flush(batch))
            batch = []
            progress(items)
          }
        }
        closed = closed || /<\/rss>|<\/channel>/.test(buffer)
        if (!sawRss) throw parseError("not an RSS feed: no <rss> or <channel> element")
        if (buffer.search(ITEM_OPEN) >= 0) throw parseError(`truncated XML: <item> number ${items + 1} is not closed`)
        if (!closed) throw parseError("truncated XML: the document ends before </channel></rss>")
        if (batch.length > 0) await Effect.runPromise(flush(batch))
        progress(items)
        return items
      },
      catch: (cause) => cause instanceof PipelineError ? cause : parseError(`cannot parse XML: ${(cause as Error).message}`)
    })
    return { rowsRead: count, structural: [], lineOf: (k: number) => k + 1 }
  }).pipe(Effect.mapError((error) => error._tag === "PipelineError" ? error : parseError(error.message)))
}
