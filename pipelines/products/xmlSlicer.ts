import { createReadStream } from "node:fs"
import { createGunzip } from "node:zlib"
import type { StagedRecord } from "./stagedColumns.ts"
import { itemToRecord } from "./xmlItems.ts"

// Google Merchant RSS 2.0, streamed: the bytes are cut into <item>...</item>
// slices as they arrive and each slice is decoded and read on its own
// (xmlItems.ts), so memory holds one chunk and one batch, never the document
// (a 1M-item feed is ~1 GB of XML). The cutting works on the bytes: every
// marker it looks for is ASCII, which UTF-8 never uses inside a multi-byte
// character, so a cut never splits one. Decoding the whole text first and
// searching it took twice the time (`npm run bench:xml`, 200,000 items:
// 6.8 s against 3.1 s; docs/pipelines.md), most of it the UTF-8 decoding of
// every chunk and searches in text that one character outside Latin-1 had
// made two bytes per character. A file that stops inside an item, or never
// closes </rss>, is truncated: reading it fails.

/** The file's bytes, gunzipped when it is gzip, in chunks of 1 MB. */
export const xmlChunks = (file: string, gzip: boolean): AsyncIterable<Buffer> => {
  const raw = createReadStream(file, { highWaterMark: 1 << 20 })
  return (gzip ? raw.pipe(createGunzip()) : raw) as AsyncIterable<Buffer>
}

export class XmlFeedError extends Error {}

const ascii = (text: string) => Buffer.from(text, "latin1")
const ITEM = ascii("<item")
const RSS = ascii("<rss")
const CHANNEL = ascii("<channel")
const END_ITEM = ascii("</item")
const END_RSS = ascii("</rss")
const END_CHANNEL = ascii("</channel")
const MARKUP = ascii("<!")
const CDATA_OPEN = ascii("<![CDATA[")
const CDATA_CLOSE = ascii("]]>")
const COMMENT_OPEN = ascii("<!--")
const COMMENT_CLOSE = ascii("-->")
const GT = 62 // ">"
const GT_MARKER = ascii(">")

const isSpace = (byte: number | undefined) => byte === 32 || byte === 9 || byte === 10 || byte === 13

/**
 * The most bytes one item, comment or CDATA section may span before the feed
 * fails: past it, the buffer would grow with a missing or mistyped closing
 * tag until the worker's heap ran out, rescanning the item with every chunk.
 * The staged CSV line has the same bound (xmlStagingWorker.ts).
 */
export const MAX_PENDING_XML = 16 * 1024 * 1024

const MAX_PENDING_XML_MB = MAX_PENDING_XML / 1024 / 1024

/** Offset of `name` ("<item") opening a tag (whitespace or ">" after it) at or after `from`, or -1. */
const openTagAt = (bytes: Buffer, name: Buffer, from: number) => {
  for (let at = bytes.indexOf(name, from); at >= 0; at = bytes.indexOf(name, at + name.length)) {
    const next = bytes[at + name.length] // undefined at the end: the tag may go on in the next chunk
    if (next === GT || isSpace(next)) return at
  }
  return -1
}

/** Offset of the end tag `prefix` ("</item") opens at or after `from` (XML allows whitespace before its ">"), or -1. */
const endTagAt = (bytes: Buffer, prefix: Buffer, from: number) => {
  for (let at = bytes.indexOf(prefix, from); at >= 0; at = bytes.indexOf(prefix, at + prefix.length)) {
    let i = at + prefix.length
    while (isSpace(bytes[i])) i++
    if (bytes[i] === GT) return at // anything else ("</items>", or the bytes end) is not this end tag
  }
  return -1
}

/** Whether `bytes` closes the channel or the document. */
const closesRss = (bytes: Buffer) => endTagAt(bytes, END_RSS, 0) >= 0 || endTagAt(bytes, END_CHANNEL, 0) >= 0

const startsAt = (bytes: Buffer, marker: Buffer, at: number) =>
  bytes.length - at >= marker.length && bytes.compare(marker, 0, marker.length, at, at + marker.length) === 0

/** The closing marker of the comment, CDATA section or declaration opening at `open` ("<!"). */
const markupClose = (bytes: Buffer, open: number) =>
  startsAt(bytes, CDATA_OPEN, open) ? CDATA_CLOSE : startsAt(bytes, COMMENT_OPEN, open) ? COMMENT_CLOSE : GT_MARKER

/** An offset found in a view starting at `from`, as an offset in the whole (-1 stays -1). */
const offsetFrom = (offset: number, from: number) => (offset < 0 ? -1 : from + offset)

/** Offset of the "</item>" closing the item at `from`, outside comments and CDATA; -1 when not in the bytes yet. */
const itemEnd = (bytes: Buffer, from: number): number => {
  for (let at = from; ;) {
    const end = endTagAt(bytes, END_ITEM, at)
    if (end < 0) return -1
    const bang = offsetFrom(bytes.subarray(at, end).indexOf(MARKUP), at)
    if (bang < 0) return end
    const close = markupClose(bytes, bang)
    const closed = bytes.indexOf(close, bang + 2)
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
  chunks: AsyncIterable<Uint8Array>,
  batchSize: number,
  storeColumn?: string
): AsyncGenerator<Array<StagedRecord>> {
  let buffer: Buffer = Buffer.alloc(0)
  let items = 0
  let sawRss = false
  let closed = false
  let batch: Array<StagedRecord> = []
  for await (const chunk of chunks) {
    // the chunk as it is when nothing is left over (Buffer.from would copy it)
    buffer =
      buffer.length > 0
        ? Buffer.concat([buffer, chunk])
        : Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    if (!sawRss) {
      if (openTagAt(buffer, RSS, 0) >= 0 || openTagAt(buffer, CHANNEL, 0) >= 0) sawRss = true
      else if (buffer.length > 64 * 1024) throw new XmlFeedError("not an RSS feed: no <rss> or <channel> element")
    }
    // Walk the buffer by offset and cut it once per chunk (cutting per item would copy the chunk per item).
    let pos = 0
    for (;;) {
      const start = openTagAt(buffer, ITEM, pos)
      // A comment or CDATA section before the next item may hold "<item" itself: skip it first.
      const bang =
        start < 0 ? buffer.indexOf(MARKUP, pos) : offsetFrom(buffer.subarray(pos, start).indexOf(MARKUP), pos)
      if (bang >= 0) {
        closed = closed || closesRss(buffer.subarray(pos, bang))
        const close = markupClose(buffer, bang)
        // fewer than 9 bytes may not tell a comment from a CDATA section yet
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
        closed = closed || closesRss(buffer.subarray(pos))
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
      const after = buffer.indexOf(GT, end) + 1
      batch.push(itemToRecord(buffer.toString("utf8", start, after), storeColumn))
      items++
      pos = after
      // a full batch goes out mid-chunk (a 1 MB chunk holds about a thousand items), so
      // every batch but the last is exactly batchSize
      if (batch.length >= batchSize) {
        yield batch
        batch = []
      }
    }
    buffer = buffer.subarray(pos)
  }
  closed = closed || closesRss(buffer)
  if (!sawRss) throw new XmlFeedError("not an RSS feed: no <rss> or <channel> element")
  if (openTagAt(buffer, ITEM, 0) >= 0) throw new XmlFeedError(`truncated XML: <item> number ${items + 1} is not closed`)
  if (!closed) throw new XmlFeedError("truncated XML: the document ends before </channel></rss>")
  if (batch.length > 0) yield batch
}
