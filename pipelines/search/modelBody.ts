import { type ProductDocument, type ProductRow, productDocument } from "../../readModel/documents.ts"
import { modelDocument } from "../../readModel/modelDocuments.ts"

// A batch's model documents as the JSON body Meilisearch takes, built model
// by model: the batch file lists its rows in model order (rebuildChunkRows,
// deltaChunkRows), so a model's offers are consecutive and only one model's
// are held at a time, and each document is encoded into the body once built.
// Built as one array of every offer, then every document, then one JSON
// string of the batch, the sync worker's heap held the batch four times over
// (106 MB of used heap sampled for batches of the longest descriptions, 17 MB
// model by model: test/pipelines/search/syncMemory.test.ts).

const encoder = new TextEncoder()

/**
 * The same bytes as JSON.stringify(modelDocuments(offers)) over the rows'
 * offer documents, with the rows in model order. A model whose rows are not
 * consecutive is an error, not two documents of one model. Each document's
 * JSON is encoded as soon as it is built; `sizeHint` is where the body's
 * buffer starts (the batch file's size: a batch's documents are about its
 * rows' size), doubled when it fills.
 */
export const modelDocumentsBody = (rows: Iterable<ProductRow>, now: Date, sizeHint = 0) => {
  const body = byteSink(sizeHint)
  const seen = new Set<string>()
  let documents = 0
  let model: Array<ProductDocument> = []
  const close = () => {
    if (model.length === 0) return
    body.put(documents === 0 ? "[" : ",")
    body.put(JSON.stringify(modelDocument(model)))
    documents++
    model = []
  }
  for (const row of rows) {
    const offer = productDocument(row, now)
    if (model.length > 0 && model[0].group_key !== offer.group_key) close()
    if (model.length === 0) {
      if (seen.has(offer.group_key))
        throw new Error(`model ${offer.group_key}: its rows are not consecutive in the batch file`)
      seen.add(offer.group_key)
    }
    model.push(offer)
  }
  close()
  body.put(documents === 0 ? "[]" : "]")
  return { body: body.bytes(), documents }
}

/** UTF-8 text appended to one growing buffer; `bytes` is a view of what was written (handed over, not copied). */
const byteSink = (initial: number) => {
  let buffer = new Uint8Array(Math.max(initial, 1024))
  let length = 0
  const put = (text: string) => {
    for (let rest = text; ;) {
      const { read, written } = encoder.encodeInto(rest, buffer.subarray(length))
      length += written
      if (read === rest.length) return
      rest = rest.slice(read)
      const grown = new Uint8Array(buffer.length * 2)
      grown.set(buffer.subarray(0, length))
      buffer = grown
    }
  }
  return { put, bytes: () => buffer.subarray(0, length) }
}
