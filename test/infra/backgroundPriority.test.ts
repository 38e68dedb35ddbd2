import { Effect, Option } from "effect"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database } from "../../infra/Database.ts"
import { isIndexingThread } from "../../infra/meiliIndexingPriority.ts"
import { meiliProcessesOn } from "../../infra/MeiliPidFile.ts"
import { threadsOf, type ThreadInfo } from "../../infra/threadPriority.ts"
import { SearchSync } from "../../pipelines/search/SearchSync.ts"
import { SYNC_WORKER_NAME } from "../../pipelines/search/syncWorkerProtocol.ts"
import { insertProducts } from "../support/catalogFixtures.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// Background work yields the CPU to serving: while a products sync runs, the
// embedded Meilisearch's indexing threads and the sync's worker thread run at
// BACKGROUND_NICE, and the threads that answer (Meilisearch's search and HTTP
// threads, our own main thread) keep the nice value they started with. Read
// from /proc (a thread's stat, field 19), as the kernel schedules them.

/** Not the default (10): nothing else on the machine gives threads this value. */
const NICE = 13
const PRODUCTS = 20_000
/** Meilisearch's threads that serve searches and HTTP. */
const SERVING = /^(actix-|tokio-runtime)/

interface Sample {
  readonly atMs: number
  readonly meili: ReadonlyArray<ThreadInfo>
  readonly own: ReadonlyArray<ThreadInfo>
}

describe("thread priorities while a sync indexes", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService({
      meiliUrl: Option.none(),
      meiliMasterKey: Option.none(),
      meiliIndexPrefix: "",
      backgroundNice: NICE
    })
    await service.run(
      insertProducts([{ itemId: "lamp", title: "Desk Lamp, Black", color: "Black", price: 30, history: [[10, 35]] }])
    )
    // PRODUCTS products of as many models: a few seconds of indexing.
    await service.run(
      Effect.gen(function* () {
        const db = yield* Database
        yield* db.run(
          `INSERT INTO products SELECT p.* REPLACE (p.id || '-' || t.i AS id, p.item_id || '-' || t.i AS item_id,
             'Desk Lamp ' || t.i || ', Black' AS title)
           FROM products p, range(1, ${PRODUCTS}) t(i)`
        )
      })
    )
  })
  afterAll(() => service?.close())

  it(`runs Meilisearch's indexing threads and the sync worker at nice ${NICE}, its search threads and our main thread as they were`, async () => {
    const [meiliPid] = meiliProcessesOn(join(service.dataDir, "meilisearch"))
    expect(meiliPid).toBeGreaterThan(0)
    const started = performance.now()
    const samples: Array<Sample> = []
    let syncing = true
    const sync = service.run(SearchSync.use((sync) => sync.syncProducts())).finally(() => (syncing = false))
    while (syncing) {
      // a search while it indexes: its threads must be there to be looked at
      await fetch(`${service.url}/api/search?q=lamp`)
      samples.push({ atMs: performance.now() - started, meili: threadsOf(meiliPid!), own: threadsOf("self") })
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(await sync).toMatchObject({ upserted: PRODUCTS })

    const meiliThreads = samples.flatMap((sample) => sample.meili)
    const describeThreads = (threads: ReadonlyArray<ThreadInfo>) =>
      [...new Set(threads.map((t) => `${t.name}@${t.nice}`))].join(", ")
    // indexing was under way: a batch's own threads were seen
    const batchThreads = meiliThreads.filter((t) => /^(batch-operation|indexer-)/.test(t.name))
    expect(batchThreads.length, describeThreads(meiliThreads)).toBeGreaterThan(0)
    // every indexing thread at NICE (a thread is given at most one sweep, a second, to get there)
    const indexing = samples
      .filter((sample) => sample.atMs > 1_500)
      .flatMap((sample) => sample.meili.filter((t) => isIndexingThread(t.name)))
    expect(indexing.length).toBeGreaterThan(0)
    expect(describeThreads(indexing.filter((t) => t.nice !== NICE))).toBe("")
    // the threads that answer searches keep the process's value
    const serving = meiliThreads.filter((t) => SERVING.test(t.name))
    expect(serving.length).toBeGreaterThan(0)
    expect(describeThreads(serving.filter((t) => t.nice !== 0))).toBe("")

    // our side: the sync's worker thread niced, the main thread (the event loop) not
    const own = samples.flatMap((sample) => sample.own)
    const worker = own.filter((t) => t.name === SYNC_WORKER_NAME)
    expect(worker.length, describeThreads(own)).toBeGreaterThan(0)
    // (it nices itself as it starts: a sample may catch it before)
    const niced = worker.findIndex((t) => t.nice === NICE)
    expect(niced, describeThreads(worker)).toBeGreaterThanOrEqual(0)
    expect(describeThreads(worker.slice(niced).filter((t) => t.nice !== NICE))).toBe("")
    expect(describeThreads(own.filter((t) => t.tid === process.pid && t.nice !== 0))).toBe("")
    expect(describeThreads(own.filter((t) => t.name !== SYNC_WORKER_NAME && t.nice === NICE))).toBe("")
  })
})
