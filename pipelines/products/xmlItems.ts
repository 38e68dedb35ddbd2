import { STAGED_COLUMNS, type StagedRecord } from "./stagedColumns.ts"

// One Google Merchant RSS 2.0 (xmlns:g) <item>, as the slicer
// (xmlSlicer.ts) cuts it from the feed: its fields, read by a hand-written
// scan of the item's text (fast-xml-parser measured ~0.3 ms per item, too slow
// for a 1M-item feed). `npm run bench:xml` checks the records equal saxes'.

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
