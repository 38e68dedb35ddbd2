import { Effect, Exit, Fiber } from "effect"
import fc from "fast-check"
import { existsSync, readdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { Database } from "../../infra/Database.ts"
import { feedDefinition } from "../../pipelines/FeedConfig.ts"
import { STAGED_COLUMNS, type StagedRecord } from "../../pipelines/products/stagedColumns.ts"
import { stageXml } from "../../pipelines/products/stageXml.ts"
import { sliceXmlItems, xmlChunks } from "../../pipelines/products/xmlSlicer.ts"
import { threadsOf, type ThreadInfo } from "../../infra/threadPriority.ts"
import { MAX_ITEM_BYTES, XML_STAGING_WORKER_NAME } from "../../pipelines/products/xmlStagingWorker.ts"
import { tempDir } from "../support/TestService.ts"

// An XML feed's items travel from the worker thread to DuckDB as CSV
// (xmlStagingWorker.ts, stageXml.ts). Whatever text an item holds (quotes,
// commas, line breaks of any kind, NUL, astral characters, values that are
// empty or absent), the staging table must hold what the item scanner reads
// in process: checked on generated items, on a real DuckDB.

const G = "http://base.google.com/ns/1.0"
/** The columns an item writes as elements (the rest are NULL for XML, or come from options). */
const WRITTEN = ["id", "title", "description", "link", "price", "brand", "color", "size", "custom_label_0"] as const

/** Text as XML character data: markup escaped, control characters as numeric references. */
const xmlText = (value: string) =>
  value.replace(/[&<>\u0000-\u001f]/g, (c) =>
    c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : `&#${c.charCodeAt(0)};`
  )

const awkward = fc.constantFrom('"', '""', ",", "\n", "\r\n", "\r", "\t", "\u0000", "'", "\\", " ", "😀", "é")
const value = fc.oneof(
  fc.constant(undefined), // element absent
  fc.constant(""), // element empty
  fc.string({ unit: fc.oneof(awkward, fc.string({ unit: "binary", minLength: 1, maxLength: 1 })), maxLength: 30 }),
  fc.string({ maxLength: 3000 })
)
const item = fc.record(
  Object.fromEntries(WRITTEN.map((c) => [c, value])) as Record<(typeof WRITTEN)[number], typeof value>
)

const rssOf = (items: ReadonlyArray<Record<string, string | undefined>>) =>
  `<?xml version="1.0"?><rss version="2.0" xmlns:g="${G}"><channel><title>t</title>` +
  items
    .map(
      (fields) =>
        `<item>${Object.entries(fields)
          .filter(([, text]) => text !== undefined)
          .map(([name, text]) => `<g:${name}>${xmlText(text!)}</g:${name}>`)
          .join("")}</item>\n`
    )
    .join("") +
  "</channel></rss>\n"

const feed = (store?: string) =>
  feedDefinition({
    name: "xml-staging",
    kind: "products",
    format: "gmc-xml",
    location: "/nowhere.xml",
    options: { storeColumn: "custom_label_0", ...(store === undefined ? {} : { store }) }
  })

describe("an XML feed staged through the worker's CSV", () => {
  const files = tempDir("xml-staging-")
  const scratch = { dir: join(files.dir, "scratch"), nice: 0 }
  afterAll(() => files.rm())

  const scanned = async (file: string, store?: string) => {
    const records: Array<StagedRecord> = []
    for await (const batch of sliceXmlItems(xmlChunks(file, false), 100, "custom_label_0"))
      for (const record of batch) records.push({ ...record, store: record.store ?? store ?? null })
    return records
  }

  /** The staging table's rows in item order, and the records the scanner reads in process from the same file. */
  const stageBoth = (file: string, store?: string, nice = 0) =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const db = yield* Database.make(":memory:", 1)
          const progress: Array<number> = []
          const staged = yield* stageXml(
            db,
            feed(store),
            { file, gzip: false, runId: "run-1" },
            "staged_items",
            "true",
            (rows) => progress.push(rows),
            { ...scratch, nice }
          )
          const rows = yield* db.transaction((tx) =>
            tx.query<StagedRecord>(`SELECT ${STAGED_COLUMNS.join(", ")} FROM staged_items ORDER BY rowid`)
          )
          const expected = yield* Effect.promise(() => scanned(file, store))
          return { staged, rows, expected, progress }
        })
      )
    )

  it("holds what the item scanner reads, value for value, for any text", async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(item, { minLength: 1, maxLength: 100 }),
        fc.option(fc.string({ minLength: 1 })),
        async (items, store) => {
          const file = join(files.dir, `feed-${run++}.xml`)
          writeFileSync(file, rssOf(items))
          const { staged, rows, expected } = await stageBoth(file, store ?? undefined)
          expect(staged.rowsRead).toBe(items.length)
          expect(rows).toEqual(expected)
        }
      ),
      { numRuns: 20 }
    )
  }, 120_000)

  it("reports progress as the worker writes, and leaves no CSV behind", async () => {
    const file = join(files.dir, "long.xml")
    writeFileSync(file, rssOf(Array.from({ length: 2_500 }, (_, i) => ({ id: `L${i}`, title: `Item ${i}` }))))
    const { staged, rows, progress } = await stageBoth(file)
    expect(staged.rowsRead).toBe(2_500)
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 2_500 }, (_, i) => `L${i}`))
    expect(progress).toEqual([1_000, 2_000, 2_500])
    expect(readdirSync(scratch.dir)).toEqual([])
  })

  it("fails a truncated feed with the scanner's reason, and leaves no CSV behind", async () => {
    const file = join(files.dir, "truncated.xml")
    const whole = rssOf([{ id: "T1" }, { id: "T2" }])
    writeFileSync(file, whole.slice(0, whole.indexOf("T2") + 4))
    await expect(stageBoth(file)).rejects.toThrow(/truncated XML: <item> number 2 is not closed/)
    expect(existsSync(scratch.dir) ? readdirSync(scratch.dir) : []).toEqual([])
  })

  it("scans in a thread of its own at the nice value it is given, the main thread's left as it was", async () => {
    const NICE = 13 // not the default (10): nothing else here gives threads this value
    const file = join(files.dir, "niced.xml")
    writeFileSync(
      file,
      rssOf(
        Array.from({ length: 20_000 }, (_, i) => ({ id: `N${i}`, title: `Item ${i}`, description: "x".repeat(200) }))
      )
    )
    const seen: Array<ThreadInfo> = []
    const sampler = setInterval(() => seen.push(...threadsOf("self")), 5)
    const { staged } = await stageBoth(file, undefined, NICE).finally(() => clearInterval(sampler))
    expect(staged.rowsRead).toBe(20_000)
    const worker = seen.filter((t) => t.name === XML_STAGING_WORKER_NAME)
    const listed = (threads: ReadonlyArray<ThreadInfo>) =>
      [...new Set(threads.map((t) => `${t.name}@${t.nice}`))].join(", ")
    expect(worker.length, listed(seen)).toBeGreaterThan(0)
    // it nices itself as it starts: a sample may catch it before
    const niced = worker.findIndex((t) => t.nice === NICE)
    expect(niced, listed(worker)).toBeGreaterThanOrEqual(0)
    expect(listed(worker.slice(niced).filter((t) => t.nice !== NICE))).toBe("")
    expect(listed(seen.filter((t) => t.tid === process.pid && t.nice !== 0))).toBe("")
  })

  it("fails an item larger than DuckDB is told to read with the item's number, and leaves no CSV behind", async () => {
    const file = join(files.dir, "huge.xml")
    const huge = "z".repeat(MAX_ITEM_BYTES + 1)
    writeFileSync(file, rssOf([{ id: "H1" }, { id: "H2", description: huge }, { id: "H3" }]))
    await expect(stageBoth(file)).rejects.toThrow(/<item> number 2 is larger than 16 MB/)
    expect(readdirSync(scratch.dir)).toEqual([])
  })

  it("stops the worker and removes its CSV when the run is interrupted", async () => {
    const file = join(files.dir, "interrupted.xml")
    writeFileSync(
      file,
      rssOf(
        Array.from({ length: 60_000 }, (_, i) => ({ id: `I${i}`, title: `Item ${i}`, description: "y".repeat(300) }))
      )
    )
    const workers = () => threadsOf("self").filter((t) => t.name === XML_STAGING_WORKER_NAME)
    const exit = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const db = yield* Database.make(":memory:", 1)
          let written = 0
          const fiber = yield* Effect.forkChild(
            stageXml(
              db,
              feed(),
              { file, gzip: false, runId: "run-interrupted" },
              "staged_items",
              "true",
              (rows) => (written = rows),
              scratch
            )
          )
          // the worker is under way: it has written its first batch
          while (written === 0) yield* Effect.sleep("5 millis")
          expect(workers()).toHaveLength(1)
          yield* Fiber.interrupt(fiber)
          return yield* Fiber.await(fiber)
        })
      )
    )
    expect(Exit.hasInterrupts(exit)).toBe(true)
    expect(workers()).toEqual([])
    expect(readdirSync(scratch.dir)).toEqual([])
  })
})
