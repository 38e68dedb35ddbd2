// Regenerates every committed file under data/samples/ from code and fixed
// seeds; running it twice gives byte-identical files.
//   node scripts/generate-samples.ts
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { buildPrograms, type ProgramRecord } from "./catalog/programs.ts"
import { checkNetworks, networkDefs, networkRecord } from "./catalog/networks.ts"
import { writeProducts } from "./generate-products.ts"
import { awinProductId, type FeedFormat } from "./products/formats.ts"
import { historyFor, isGenuineDeal } from "./products/history.ts"
import type { Product } from "./products/product.ts"
import { selectStores } from "./products/stores.ts"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
export const SAMPLES_DIR = join(root, "data", "samples")

/** The sample feeds: feed name (the product_key prefix), file, format, stores, size, seed. */
export const SAMPLE_FEEDS: ReadonlyArray<{
  feed: string
  file: string
  format: FeedFormat
  stores: string
  count: number
  seed: number
  title: string
}> = [
  {
    feed: "us-electronics",
    file: "products/us-electronics-and-home.tsv",
    format: "gmc-tsv",
    stores: "us",
    count: 2500,
    seed: 20261101,
    title: "US Electronics and Home"
  },
  {
    feed: "uk-lifestyle",
    file: "products/uk-lifestyle.xml",
    format: "gmc-xml",
    stores: "gb",
    count: 1500,
    seed: 20261102,
    title: "UK Lifestyle"
  },
  {
    feed: "eu-awin",
    file: "products/eu-awin.csv.gz",
    format: "awin-csv",
    stores: "eu",
    count: 1500,
    seed: 20261103,
    title: "EU Awin"
  }
]

const jsonl = (rows: ReadonlyArray<unknown>): string => rows.map((r) => JSON.stringify(r)).join("\n") + "\n"

/** Host or any parent of it is a programme domain (store.example.com before example.com). */
export const programmeFor = (
  host: string,
  byDomain: ReadonlyMap<string, ReadonlyArray<ProgramRecord>>
): ReadonlyArray<ProgramRecord> | undefined => {
  const labels = host.split(".")
  for (let i = 0; i < labels.length - 1; i++) {
    const found = byDomain.get(labels.slice(i).join("."))
    if (found !== undefined) return found
  }
  return undefined
}

const main = async () => {
  checkNetworks()
  mkdirSync(join(SAMPLES_DIR, "products"), { recursive: true })
  writeFileSync(join(SAMPLES_DIR, "networks.jsonl"), jsonl(networkDefs.map(networkRecord)))
  const programs = buildPrograms()
  writeFileSync(join(SAMPLES_DIR, "programs.jsonl"), jsonl(programs))

  const byDomain = new Map<string, Array<ProgramRecord>>()
  for (const p of programs) for (const d of p.domains) byDomain.set(d, [...(byDomain.get(d) ?? []), p])

  const history: Array<string> = ["product_key,observed_at,price,currency\n"]
  const mismatches: Array<string> = []
  let genuine = 0
  let total = 0
  for (const f of SAMPLE_FEEDS) {
    const onProduct = (p: Product) => {
      const host = new URL(p.link).hostname
      if (programmeFor(host, byDomain) === undefined) throw new Error(`${p.id}: no programme for ${host}`)
      const key = `${f.feed}:${f.format === "awin-csv" ? awinProductId(p) : p.id}`
      const series = historyFor(key, p)
      const isDeal = isGenuineDeal(series)
      if (isDeal !== (p.dealClass === "genuine-sale" || p.dealClass === "genuine-drop"))
        mismatches.push(`${key} ${p.dealClass}`)
      if (isDeal) genuine++
      total++
      for (const [at, price] of series)
        history.push(`${key},${new Date(at).toISOString().replace(".000Z", "Z")},${price.toFixed(2)},${p.currency}\n`)
    }
    await writeProducts(
      {
        format: f.format,
        count: f.count,
        seed: f.seed,
        out: join(SAMPLES_DIR, f.file),
        stores: selectStores(f.stores),
        title: f.title
      },
      onProduct
    )
  }
  if (mismatches.length > 0)
    throw new Error(`history disagrees with deal class: ${mismatches.slice(0, 5).join("; ")} (${mismatches.length})`)
  writeFileSync(join(SAMPLES_DIR, "price-history.csv"), history.join(""))
  process.stderr.write(
    `${networkDefs.length} networks, ${programs.length} programmes, ${total} products, ${history.length - 1} price observations, ${genuine} genuine deals\n`
  )
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exitCode = 1
})
