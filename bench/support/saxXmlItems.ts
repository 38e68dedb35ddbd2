import { SaxesParser } from "saxes"
import { fieldsToRecord } from "../../pipelines/products/xmlItems.ts"
import type { StagedRecord } from "../../pipelines/products/stagedColumns.ts"

// The contender in `npm run bench:xml`: the same records as
// pipelines/products/xmlItems.ts (direct text children of <item>, first of a
// name wins, elements with element content skipped but for g:shipping's
// countries, joined with commas), read by saxes, a
// streaming SAX parser from the registry (well-formedness checked, entities
// and CDATA decoded by the parser).

export async function* saxXmlItems(
  chunks: AsyncIterable<string | Uint8Array>,
  batchSize: number,
  storeColumn?: string
): AsyncGenerator<Array<StagedRecord>> {
  const parser = new SaxesParser({ position: false })
  let batch: Array<StagedRecord> = []
  let fields: Map<string, string> | null = null
  let depth = 0 // 1 inside <item>, 2 inside one of its children
  let name = ""
  let text = ""
  let nested = false
  let country: string | null = null // the text of a g:country inside a g:shipping, while read
  const isShipping = () => name === "g:shipping" || name === "shipping"
  parser.on("opentag", (tag) => {
    if (fields === null) {
      if (tag.name === "item") {
        fields = new Map()
        depth = 1
      }
      return
    }
    depth++
    if (depth === 2) {
      name = tag.name
      text = ""
      nested = false
    } else {
      nested = true
      if (depth === 3 && isShipping() && (tag.name === "g:country" || tag.name === "country")) country = ""
    }
  })
  const onText = (value: string) => {
    if (depth === 2) text += value
    else if (country !== null) country += value
  }
  parser.on("text", onText)
  parser.on("cdata", onText)
  parser.on("closetag", () => {
    if (fields === null) return
    if (depth === 2 && !nested && !fields.has(name)) fields.set(name, text.trim())
    if (depth === 3 && country !== null) {
      const code = country.trim()
      if (/^[A-Za-z]{2}$/.test(code)) fields.set(name, fields.has(name) ? `${fields.get(name)},${code}` : code)
      country = null
    }
    depth--
    if (depth === 0) {
      batch.push(fieldsToRecord(fields, storeColumn))
      fields = null
    }
  })
  // bytes decoded as a stream: a character split across two chunks is joined
  const decoder = new TextDecoder()
  for await (const chunk of chunks) {
    parser.write(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }))
    if (batch.length >= batchSize) {
      yield batch
      batch = []
    }
  }
  parser.write(decoder.decode())
  parser.close()
  if (batch.length > 0) yield batch
}
