import { createReadStream } from "node:fs"
import { createGunzip } from "node:zlib"
import { STAGED_COLUMNS, type StagedRecord } from "./stagedColumns.ts"

// Google Merchant RSS 2.0 (xmlns:g), streamed: the text is cut into
// <item>...</item> slices as it arrives and each slice is scanned on its own,
// so memory holds one chunk and one batch, never the document (a 1M-item feed
// is ~1 GB of XML). Measured against a streaming SAX parser from the registry
// (saxes) by `npm run bench:xml`, which checks both read the same records:
// 0.92x saxes' time when it was written, 1.22-1.30x on a later, slower day
// (27-29k against 31-37k items/s; a third of its time the chunks' UTF-8
// decoding, a quarter the search for the next <item>). It runs in a worker
// thread (xmlStagingWorker.ts), so the difference is feed time, not serving
// time. A file that stops inside an item, or never closes </rss>, is
// truncated: reading it fails.

const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }
const decode = (text: string) =>
  text.indexOf("&") < 0
    ? text
    : text.replace(ENTITY, (_, entity: string) =>
        entity[0] !== "#"
          ? NAMED[entity]
          : String.fromCodePoint(
              entity[1] === "x" || entity[1] === "X" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10)
            )
      )

const OPEN_TAG = /<([A-Za-z_][\w:.-]*)(?:\s[^>]*)?\/?>/y

const SHIPPING_COUNTRY = /<(?:g:)?country>\s*([A-Za-z]{2})\s*<\/(?:g:)?country\s*>/

/**
 * Where the end tag that `prefix` ("</name") opens starts, at or after `from`, or -1: XML
 * allows whitespace before its ">" (`</title >`, `</item\n>`), which a conforming parser reads.
 */
const endTagAt = (xml: string, prefix: string, from: number): number => {
  for (let at = xml.indexOf(prefix, from); at >= 0; at = xml.indexOf(prefix, at + prefix.length)) {
    let i = at + prefix.length
    let c = xml.charCodeAt(i)
    while (c === 32 || c === 9 || c === 10 || c === 13) c = xml.charCodeAt(++i)
    if (c === 62) return at // ">"; anything else ("</titles>", or the text ends) is not this end tag
  }
  return -1
}

/**
 * The text children of one <item> slice, by element name as written (`g:price`).
 * Merchant items are flat (text or CDATA); children with element content are
 * skipped but for g:shipping's countries (joined with commas, as "shipping"),
 * self-closing children and comments are skipped; the first of a
 * repeated name wins. fast-xml-parser measured ~0.3 ms per item here, too slow
 * for a 1M-item feed. Malformed markup throws.
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
    if (xml.charCodeAt(OPEN_TAG.lastIndex - 2) === 47) {
      // "/>": self-closing, no text
      pos = OPEN_TAG.lastIndex
      continue
    }
    const close = endTagAt(xml, `</${name}`, OPEN_TAG.lastIndex)
    if (close < 0) throw new Error(`<${name}> is not closed`)
    const inner = xml.slice(OPEN_TAG.lastIndex, close)
    const value = textContent(inner)
    pos = xml.indexOf(">", close) + 1
    if (value !== undefined) {
      if (!fields.has(name)) fields.set(name, value.trim())
    } else if (name === "g:shipping" || name === "shipping") {
      // every g:shipping names a country the store ships to: kept as the
      // comma-separated list a TSV feed writes (its country first in each group)
      const country = SHIPPING_COUNTRY.exec(inner)?.[1]
      if (country !== undefined) fields.set(name, fields.has(name) ? `${fields.get(name)},${country}` : country)
    }
  }
}

/** Text and CDATA sections (in any mix, comments dropped); undefined when the element holds elements. */
const textContent = (inner: string): string | undefined => {
  if (inner.indexOf("<") < 0) return decode(inner)
  let text = ""
  let pos = 0
  for (;;) {
    const lt = inner.indexOf("<", pos)
    text += decode(inner.slice(pos, lt < 0 ? inner.length : lt))
    if (lt < 0) return text
    if (inner.startsWith("<![CDATA[", lt)) {
      const end = inner.indexOf("]]>", lt)
      if (end < 0) throw new Error("unterminated CDATA section")
      text += inner.slice(lt + 9, end)
      pos = end + 3
    } else if (inner.startsWith("<!--", lt)) {
      const end = inner.indexOf("-->", lt)
      if (end < 0) throw new Error("unterminated comment")
      pos = end + 3
    } else {
      return undefined
    }
  }
}

const orNull = (value: string | undefined) => (value === undefined || value === "" ? null : value)

const PREFIXED = STAGED_COLUMNS.map((column) => [column, `g:${column}`] as const)

/** An item's fields to a staged record: `g:price` wins over `price`; both stage as `price`. */
export const fieldsToRecord = (fields: ReadonlyMap<string, string>, storeColumn?: string): StagedRecord => {
  const record = {} as StagedRecord
  for (const [column, prefixed] of PREFIXED) record[column] = orNull(fields.get(prefixed) ?? fields.get(column))
  if (record.store === null && storeColumn !== undefined)
    record.store = orNull(fields.get(`g:${storeColumn}`) ?? fields.get(storeColumn))
  record.category = null
  record.was_price = null
  record.currency = null
  return record
}

/** One <item> slice to a staged record. */
export const itemToRecord = (xml: string, storeColumn?: string): StagedRecord =>
  fieldsToRecord(itemFields(xml), storeColumn)

/** The file as text chunks, gunzipped when it is gzip. */
export const xmlChunks = (file: string, gzip: boolean): AsyncIterable<string> => {
  const raw = createReadStream(file, { highWaterMark: 1 << 20 })
  const stream = gzip ? raw.pipe(createGunzip()) : raw
  stream.setEncoding("utf8")
  return stream as AsyncIterable<string>
}

export class XmlFeedError extends Error {}

const ITEM_OPEN = /<item[\s>]/
const RSS_OPEN = /<rss[\s>]|<channel[\s>]/
const RSS_CLOSE = /<\/rss\s*>|<\/channel\s*>/

/**
 * The most XML text one item, comment or CDATA section may span (characters)
 * before the feed fails: past it, the buffer would grow with a missing or
 * mistyped closing tag until the worker's heap ran out, rescanning the item
 * with every chunk. The staged CSV line has the same bound (xmlStagingWorker.ts).
 */
export const MAX_PENDING_XML = 16 * 1024 * 1024

const MAX_PENDING_XML_MB = MAX_PENDING_XML / 1024 / 1024

/** Offset of the next "<item>" or "<item ..." at or after `from`, or -1 (indexOf: a regex here cost ~8% of the scan). */
const nextItem = (text: string, from: number) => {
  for (let at = text.indexOf("<item", from); at >= 0; at = text.indexOf("<item", at + 5)) {
    const next = text.charCodeAt(at + 5) // NaN at the end of the text: "<item" may continue in the next chunk
    if (next === 62 || next === 32 || next === 9 || next === 10 || next === 13) return at
  }
  return -1
}

/** The closing marker of the comment, CDATA section or declaration opening at `open` ("<!"). */
const markupClose = (text: string, open: number) =>
  text.startsWith("<![CDATA[", open) ? "]]>" : text.startsWith("<!--", open) ? "-->" : ">"

/** An offset found in a slice starting at `from`, as an offset in the whole text (-1 stays -1). */
const offsetFrom = (offset: number, from: number) => (offset < 0 ? -1 : from + offset)

/** Offset of the "</item>" closing the item at `from`, outside comments and CDATA; -1 when not in the text yet. */
const itemEnd = (text: string, from: number): number => {
  for (let at = from; ;) {
    const end = endTagAt(text, "</item", at)
    if (end < 0) return -1
    const bang = text.slice(at, end).indexOf("<!") // an item-sized copy: indexOf has no end bound
    if (bang < 0) return end
    const close = markupClose(text, at + bang)
    const closed = text.indexOf(close, at + bang + 2)
    if (closed < 0) return -1
    at = closed + close.length
  }
}

/**
 * The feed's items as staged records, in batches of `batchSize` (the last one smaller). Fails
 * (XmlFeedError) on a document that is not RSS or is truncated; an Error from
 * the item scan on malformed markup.
 */
export async function* sliceXmlItems(
  chunks: AsyncIterable<string>,
  batchSize: number,
  storeColumn?: string
): AsyncGenerator<Array<StagedRecord>> {
  let buffer = ""
  let items = 0
  let sawRss = false
  let closed = false
  let batch: Array<StagedRecord> = []
  for await (const chunk of chunks) {
    buffer += chunk
    if (!sawRss) {
      if (RSS_OPEN.test(buffer)) sawRss = true
      else if (buffer.length > 64 * 1024) throw new XmlFeedError("not an RSS feed: no <rss> or <channel> element")
    }
    // Walk the buffer by offset and cut it once per chunk (slicing per item would copy the chunk per item).
    let pos = 0
    for (;;) {
      const start = nextItem(buffer, pos)
      // A comment or CDATA section before the next item may hold "<item" itself: skip it first.
      const bang = start < 0 ? buffer.indexOf("<!", pos) : offsetFrom(buffer.slice(pos, start).indexOf("<!"), pos)
      if (bang >= 0) {
        closed = closed || RSS_CLOSE.test(buffer.slice(pos, bang))
        const close = markupClose(buffer, bang)
        // fewer than 9 characters may not tell a comment from a CDATA section yet
        const markupEnd = buffer.length - bang < 9 ? -1 : buffer.indexOf(close, bang + 2)
        if (markupEnd < 0) {
          pos = bang // not closed in this chunk: wait for the next one
          if (buffer.length - pos > MAX_PENDING_XML)
            throw new XmlFeedError(`a comment or CDATA section is larger than ${MAX_PENDING_XML_MB} MB, or not closed`)
          break
        }
        pos = markupEnd + close.length
        continue
      }
      if (start < 0) {
        // keep a tail in case "<item" is split across chunks
        closed = closed || RSS_CLOSE.test(buffer.slice(pos))
        pos = Math.max(pos, buffer.length - 16)
        break
      }
      const end = itemEnd(buffer, start)
      if (end < 0) {
        pos = start
        if (buffer.length - pos > MAX_PENDING_XML)
          throw new XmlFeedError(`<item> number ${items + 1} is larger than ${MAX_PENDING_XML_MB} MB, or not closed`)
        break
      }
      const after = buffer.indexOf(">", end) + 1
      batch.push(itemToRecord(buffer.slice(start, after), storeColumn))
      items++
      pos = after
      // a full batch goes out mid-chunk (a 1 MB chunk holds about a thousand items), so
      // every batch but the last is exactly batchSize
      if (batch.length >= batchSize) {
        yield batch
        batch = []
      }
    }
    buffer = buffer.slice(pos)
  }
  closed = closed || RSS_CLOSE.test(buffer)
  if (!sawRss) throw new XmlFeedError("not an RSS feed: no <rss> or <channel> element")
  if (buffer.search(ITEM_OPEN) >= 0) throw new XmlFeedError(`truncated XML: <item> number ${items + 1} is not closed`)
  if (!closed) throw new XmlFeedError("truncated XML: the document ends before </channel></rss>")
  if (batch.length > 0) yield batch
}
