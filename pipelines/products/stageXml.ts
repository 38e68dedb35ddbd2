import { Effect } from "effect"
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

const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'" }
const decode = (text: string) =>
  text.indexOf("&") < 0 ? text : text.replace(ENTITY, (_, entity: string) =>
    entity[0] !== "#"
      ? NAMED[entity]
      : String.fromCodePoint(entity[1] === "x" || entity[1] === "X" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10)))

const OPEN_TAG = /<([A-Za-z_][\w:.-]*)(?:\s[^>]*)?(\/)?>/y

/**
 * The text children of one <item> slice, by element name. Merchant items are
 * flat (text or CDATA); children with element content (g:shipping) and
 * comments are skipped. fast-xml-parser measured ~0.3 ms per item here, too
 * slow for a 1M-item feed; this scan is much faster. Malformed markup throws.
 */
export const itemFields = (xml: string): Map<string, string> => {
  const fields = new Map<string, string>()
  let pos = xml.indexOf(">") + 1
  for (;;) {
    const lt = xml.indexOf("<", pos)
    if (lt < 0) throw new Error("unterminated <item>")
    if (xml.startsWith("</item", lt)) return fields
    if (xml.startsWith("<!--", lt)) {
      const close = xml.indexOf("-->", lt)
      if (close < 0) throw new Error("unterminated comment")
      pos = close + 3
      continue
    }
    OPEN_TAG.lastIndex = lt
    const open = OPEN_TAG.exec(xml)
    if (open === null) throw new Error(`malformed tag at ${xml.slice(lt, lt + 30)}`)
    const name = open[1]
    if (open[2] === "/") {
      pos = OPEN_TAG.lastIndex
      continue
    }
    const closeTag = `</${name}>`
    const close = xml.indexOf(closeTag, OPEN_TAG.lastIndex)
    if (close < 0) throw new Error(`<${name}> is not closed`)
    const inner = xml.slice(OPEN_TAG.lastIndex, close)
    pos = close + closeTag.length
    let value: string | undefined
    if (inner.startsWith("<![CDATA[") && inner.endsWith("]]>")) value = inner.slice(9, -3)
    else if (inner.indexOf("<") < 0) value = decode(inner)
    if (value !== undefined && !fields.has(name)) fields.set(name, value.trim())
  }
}

const orNull = (value: string | undefined) => (value === undefined || value === "" ? null : value)

/** One <item> slice to a staged record: `g:price` wins over `price`; both stage as `price`. */
export const itemToRecord = (xml: string, storeColumn?: string): StagedRecord => {
  const fields = itemFields(xml)
  const field = (name: string) => orNull(fields.get(`g:${name}`) ?? fields.get(name))
  const record = {} as StagedRecord
  for (const column of STAGED_COLUMNS) record[column] = field(column)
  if (record.store === null && storeColumn !== undefined) record.store = field(storeColumn)
  record.category = null
  record.was_price = null
  record.currency = null
  return record
}

const ITEM_OPEN = /<item[\s>]/
const ITEM_OPEN_G = /<item[\s>]/g

/** Offset of the next "<item>" or "<item ..." at or after `from`, or -1. */
const nextItem = (text: string, from: number) => {
  ITEM_OPEN_G.lastIndex = from
  const match = ITEM_OPEN_G.exec(text)
  return match === null ? -1 : match.index
}

export const stageXml = (
  db: DatabaseShape,
  feed: FeedDefinition,
  file: string,
  gzip: boolean,
  table: string,
  precheck: string,
  progress: (rows: number) => void
): Effect.Effect<Staged, PipelineError> => {
  // The Appender fills a plain table; it then becomes the same TEMP staging table as the delimited formats'.
  const appended = `${table}_xml`
  const parseError = (message: string) => new PipelineError({ feed: feed.name, stage: "parse", message })
  const flush = (batch: Array<StagedRecord>) =>
    db.append(appended, (appender) => {
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
    yield* db.run(`CREATE OR REPLACE TABLE ${appended} (${STAGED_COLUMNS.map((c) => `${c} VARCHAR`).join(", ")})`)
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
          // Walk the buffer by offset and cut it once per chunk (slicing per item would copy the chunk per item).
          let pos = 0
          for (;;) {
            const start = nextItem(buffer, pos)
            if (start < 0) {
              // keep a tail in case "<item" is split across chunks
              closed = closed || /<\/rss>|<\/channel>/.test(buffer.slice(pos))
              pos = Math.max(pos, buffer.length - 16)
              break
            }
            const end = buffer.indexOf("</item>", start)
            if (end < 0) {
              pos = start
              break
            }
            const record = itemToRecord(buffer.slice(start, end + 7), feed.options.storeColumn)
            record.store ??= feed.options.store ?? null
            batch.push(record)
            items++
            pos = end + 7
          }
          buffer = buffer.slice(pos)
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
    yield* db.transaction((tx) =>
      Effect.gen(function*() {
        yield* tx.run(`CREATE OR REPLACE TEMP TABLE ${table} AS SELECT *, coalesce(${precheck}, false) AS ok FROM ${appended} ORDER BY rowid`)
        yield* tx.run(`DROP TABLE ${appended}`)
      })
    )
    return { rowsRead: count, structural: [], lineOf: (k: number) => k + 1 }
  }).pipe(
    Effect.onError(() => db.run(`DROP TABLE IF EXISTS ${appended}`).pipe(Effect.ignore)),Effect.mapError((error) => error._tag === "PipelineError" ? error : parseError(error.message)))
}
