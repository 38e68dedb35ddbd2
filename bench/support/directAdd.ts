import type { Index } from "meilisearch"
import { createReadStream, createWriteStream } from "node:fs"
import { once } from "node:events"
import { createInterface } from "node:readline"
import { BATCH_SIZE, OFFERS_PER_BATCH } from "../../pipelines/search/modelBatches.ts"

// The floor of the search sync: Meilisearch's own addDocuments of the very
// documents our sync wrote, read back from our index first (untimed) so the
// catalog is never held in memory, and sent in the batches the sync cuts.

type Doc = Record<string, unknown>

/** Every document of `index` into an NDJSON file; returns how many. */
export const exportDocuments = async (index: Index, file: string) => {
  const out = createWriteStream(file)
  let count = 0
  for (let offset = 0; ; offset += 1_000) {
    const page = await index.getDocuments({ offset, limit: 1_000 })
    for (const doc of page.results) if (!out.write(JSON.stringify(doc) + "\n")) await once(out, "drain")
    count += page.results.length
    if (page.results.length < 1_000) break
  }
  out.end()
  await once(out, "finish")
  return count
}

/** addDocuments of the NDJSON file's documents into `index`, batched as the sync batches models; awaits every task. */
export const addDocumentsFrom = async (index: Index, file: string) => {
  const pending: Array<Promise<void>> = []
  let batch: Array<Doc> = []
  let offers = 0
  let sent = 0
  const send = () => {
    const documents = batch
    batch = []
    offers = 0
    sent += documents.length
    pending.push(
      index
        .addDocuments(documents)
        .waitTask({ timeout: 3_600_000, interval: 50 })
        .then((task) => {
          if (task.status !== "succeeded")
            throw new Error(
              `direct addDocuments task ${task.uid} ${task.status}: ${task.error?.message ?? "no message"}`
            )
        })
    )
  }
  for await (const line of createInterface({ input: createReadStream(file) })) {
    const doc = JSON.parse(line) as Doc
    const n = Array.isArray(doc.offer_rows) ? doc.offer_rows.length : 1
    if (batch.length > 0 && (batch.length >= BATCH_SIZE || offers + n > OFFERS_PER_BATCH)) send()
    batch.push(doc)
    offers += n
  }
  if (batch.length > 0) send()
  await Promise.all(pending)
  return sent
}
