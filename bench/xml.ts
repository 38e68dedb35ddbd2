import { createHash } from "node:crypto"
import { existsSync, mkdirSync, statSync } from "node:fs"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import type { StagedRecord } from "../pipelines/products/stagedColumns.ts"
import { sliceXmlItems, xmlChunks } from "../pipelines/products/xmlSlicer.ts"
import { writeProducts } from "../scripts/generate-products.ts"
import { selectStores } from "../scripts/products/stores.ts"
import { machineLoad } from "./support/machineLoad.ts"
import { saxXmlItems } from "./support/saxXmlItems.ts"

// `npm run bench:xml [-- --items 200000]`: reading a Google Merchant RSS feed
// into staged records, our <item> slicer (pipelines/products/xmlSlicer.ts) vs
// saxes, a streaming SAX parser from the registry, on the same file in one
// run, alternating twice, after a floor that only reads the file.
// Both must produce the same records (a digest of every record, untimed). The feed (scripts/generate-products.ts, seed 1)
// is generated under data/var/bench/ once and reused. Target: >= 50k items/s.

const { values } = parseArgs({ options: { items: { type: "string", default: "200000" } } })
const items = Number(values.items)
const root = resolve("data/var/bench")
mkdirSync(root, { recursive: true })
const file = join(root, `products-${items}.xml`)

type Reader = (chunks: AsyncIterable<Uint8Array>, batchSize: number) => AsyncGenerator<Array<StagedRecord>>

/** A digest of every record the reader produces (untimed: the check that both read the same). */
const digestOf = async (read: Reader) => {
  const digest = createHash("sha256")
  for await (const batch of read(xmlChunks(file, false), 5_000))
    for (const record of batch) digest.update(JSON.stringify(record))
  return digest.digest("hex")
}

const measure = async (read: Reader) => {
  let count = 0
  const started = performance.now()
  const cpu = process.cpuUsage()
  for await (const batch of read(xmlChunks(file, false), 5_000)) count += batch.length
  const used = process.cpuUsage(cpu)
  return { count, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, load: machineLoad() }
}

/** The floor: reading the file, no parsing. */
async function* chunksOnly(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Array<StagedRecord>> {
  for await (const chunk of chunks) if (chunk.length < 0) yield []
}

const main = async () => {
  if (!existsSync(file)) {
    process.stderr.write(`generating ${items} products into ${file} ...\n`)
    await writeProducts({ format: "gmc-xml", count: items, seed: 1, out: file, stores: selectStores("gb") })
  }
  const readers: Array<[string, Reader]> = [
    ["our <item> slicer", sliceXmlItems],
    ["saxes (SAX parser)", saxXmlItems]
  ]
  const [slicerDigest, saxDigest] = [await digestOf(sliceXmlItems), await digestOf(saxXmlItems)]
  console.log(
    `\nbench:xml, ${items.toLocaleString("en-US")} items (gmc-xml, ${(statSync(file).size / 1e6).toFixed(0)} MB)`
  )
  console.log(
    slicerDigest === saxDigest
      ? "both readers produce the same records (digest of every record)"
      : "the readers DISAGREE on the records"
  )
  if (slicerDigest !== saxDigest) process.exitCode = 1
  const floor = await measure(chunksOnly)
  console.log(
    `${"read only".padEnd(22)} ${(floor.ms / 1000).toFixed(2)} s (cpu ${(floor.cpuMs / 1000).toFixed(2)} s)   (${floor.load})`
  )
  const best = new Map<string, Awaited<ReturnType<typeof measure>>>()
  for (let round = 0; round < 2; round++) {
    for (const [label, read] of readers) {
      const result = await measure(read)
      const perSecond = (n: number, ms: number) => Math.round(n / (ms / 1000)).toLocaleString("en-US")
      console.log(
        `${label.padEnd(22)} ${result.count} items in ${(result.ms / 1000).toFixed(2)} s: ${perSecond(result.count, result.ms).padStart(9)} items/s` +
          ` (cpu ${(result.cpuMs / 1000).toFixed(2)} s: ${perSecond(result.count, result.cpuMs)} items/cpu-s)   (${result.load})`
      )
      const previous = best.get(label)
      if (previous === undefined || result.ms < previous.ms) best.set(label, result)
    }
  }
  const [slicer, sax] = readers.map(([label]) => best.get(label)!)
  console.log(
    `best of two: slicer / saxes time ${(slicer.ms / sax.ms).toFixed(2)}x, cpu ${(slicer.cpuMs / sax.cpuMs).toFixed(2)}x; target >= 50,000 items/s`
  )
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:xml failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exitCode = 1
})
