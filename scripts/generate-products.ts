// Deterministic product-feed generator.
//   node scripts/generate-products.ts --format gmc-tsv|gmc-xml|awin-csv --count N --seed S --out FILE [--stores us,gb,eu,KEY,...]
// A ".gz" output path is gzipped. Rows are produced one at a time from
// (seed, index) and written in ~256 KB chunks with backpressure, so memory
// stays flat whatever N is. Same arguments, same bytes.
import { once } from "node:events"
import { createWriteStream } from "node:fs"
import { finished } from "node:stream/promises"
import { pathToFileURL } from "node:url"
import { parseArgs } from "node:util"
import { createGzip } from "node:zlib"
import { buildPrograms } from "./catalog/programs.ts"
import { networksById } from "./catalog/networks.ts"
import { hashString } from "./lib/prng.ts"
import { encoder, type EncoderContext, type FeedFormat } from "./products/formats.ts"
import { makeGenerator, type Product } from "./products/product.ts"
import { selectStores, type Store } from "./products/stores.ts"

export { encoder, makeGenerator }
export type { FeedFormat, Product, Store }

export interface WriteOptions {
  readonly format: FeedFormat
  readonly count: number
  readonly seed: number
  readonly out: string
  readonly stores: ReadonlyArray<Store>
  /** XML channel title. */
  readonly title?: string
  /** Editions per model (makeGenerator): more distinct models at scale; default 1. */
  readonly editions?: number
}

const DEFAULT_STORES: Readonly<Record<FeedFormat, string>> = { "gmc-tsv": "us", "gmc-xml": "gb", "awin-csv": "eu" }

let awinMids: Map<string, string> | undefined

/** Feed-independent encoder inputs: Awin ids come from the programme catalog. */
export const encoderContext = (title = "Product feed"): EncoderContext => {
  awinMids ??= new Map(
    buildPrograms()
      .filter((p) => p.network_id === "awin")
      .map((p) => [p.name, p.merchant_id])
  )
  const mids = awinMids
  const byKey = new Map<string, string>()
  return {
    title,
    channelLink: `https://feeds.brightpick.example/${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`,
    // A store without an Awin programme (only when mixing regions) gets a stable stand-in id.
    awinMid: (key) => {
      let mid = byKey.get(key)
      if (mid === undefined) {
        const store = selectStores(key)[0]
        mid = mids.get(store.name) ?? String(90_000 + (hashString(key) % 9_999))
        byKey.set(key, mid)
      }
      return mid
    },
    awinPubId: networksById.get("awin")?.account_params.pubId ?? "0"
  }
}

/** Row i of a feed as text, without writing anything: for benchmarks. */
export const rowProducer = (
  format: FeedFormat,
  seed: number,
  stores: ReadonlyArray<Store>
): ((index: number) => string) => {
  const gen = makeGenerator(seed, stores)
  const enc = encoder(format, encoderContext())
  return (index) => enc.row(gen.product(index))
}

const CHUNK = 1 << 18

/** Streams `count` products to `out`; calls onProduct for each (price history uses it). */
export const writeProducts = async (
  opts: WriteOptions,
  onProduct?: (p: Product) => void
): Promise<{ rows: number }> => {
  const gen = makeGenerator(opts.seed, opts.stores, opts.editions)
  const enc = encoder(opts.format, encoderContext(opts.title))
  const file = createWriteStream(opts.out)
  const gzip = opts.out.endsWith(".gz") ? createGzip({ level: 6 }) : null
  if (gzip !== null) gzip.pipe(file)
  const sink = gzip ?? file
  let buf = enc.header
  for (let i = 0; i < opts.count; i++) {
    const p = gen.product(i)
    onProduct?.(p)
    buf += enc.row(p)
    if (buf.length >= CHUNK) {
      const ok = sink.write(buf)
      buf = ""
      if (!ok) await once(sink, "drain")
    }
  }
  sink.end(buf + enc.footer)
  await finished(file)
  return { rows: opts.count }
}

const main = async () => {
  const { values } = parseArgs({
    options: {
      format: { type: "string" },
      count: { type: "string", default: "1000" },
      seed: { type: "string", default: "1" },
      out: { type: "string" },
      stores: { type: "string" },
      title: { type: "string" }
    }
  })
  const format = values.format as FeedFormat | undefined
  if (format !== "gmc-tsv" && format !== "gmc-xml" && format !== "awin-csv")
    throw new Error("--format must be gmc-tsv, gmc-xml or awin-csv")
  if (values.out === undefined) throw new Error("--out is required")
  const count = Number(values.count)
  const seed = Number(values.seed)
  if (!Number.isSafeInteger(count) || count < 0 || !Number.isSafeInteger(seed))
    throw new Error("--count and --seed must be integers")
  const started = performance.now()
  await writeProducts({
    format,
    count,
    seed,
    out: values.out,
    stores: selectStores(values.stores ?? DEFAULT_STORES[format]),
    title: values.title
  })
  const seconds = (performance.now() - started) / 1000
  const rssMb = process.resourceUsage().maxRSS / 1024
  process.stderr.write(
    `${count} rows (${format}) -> ${values.out} in ${seconds.toFixed(2)} s, peak RSS ${rssMb.toFixed(0)} MB\n`
  )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 1
  })
}
