import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { watchMainThread } from "../../../bench/support/threadCpu.ts"
import { Database } from "../../../infra/Database.ts"
import { SearchSync } from "../../../pipelines/search/SearchSync.ts"
import { PRODUCTS_INDEX } from "../../../readModel/indexes.ts"
import { SearchEngine } from "../../../infra/SearchEngine.ts"
import { insertProducts } from "../../support/catalogFixtures.ts"
import { startService, type RunningService } from "../../support/TestService.ts"

// A products sync runs inside the service that answers redirects: its
// per-row work (model keys, documents, their JSON) must not hold the event
// loop. Measured as the main thread's own CPU time between two turns of a
// 2 ms timer (process.threadCpuUsage): unlike a timer's lateness, it does not
// grow when a loaded machine keeps the process off the cores, so the bound
// below holds on a busy machine while a sync that builds one batch's
// documents on the event loop (20,000 offers: several hundred milliseconds
// of CPU) exceeds it.

const PRODUCTS = 20_000
/**
 * The longest stretch of main-thread CPU allowed between two timer turns
 * (ms), the garbage collector's pauses inside it taken out: a few times what
 * a sliced sync takes. A sync of these products takes 5-24 ms at most alone
 * on a machine at load 9. Inside the whole suite the test process's heap
 * holds what the files before this one left, and with its collections
 * counted the longest stretch reached 77 ms (a removal) and 127 ms (a sync);
 * alone, 24 of a removal's 31 ms were a collection.
 */
const BOUND_MS = 100

const longestOf = (stretch: { longestMs: number; longestOutsideGcMs: number }) =>
  `longest stretch ${stretch.longestMs.toFixed(1)} ms, ${stretch.longestOutsideGcMs.toFixed(1)} ms outside GC pauses`

describe("a products sync and the event loop", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService()
    // One fixture product in colours, multiplied in SQL: PRODUCTS products of
    // as many models (each title its own), with a price history each.
    await service.run(
      insertProducts([
        {
          itemId: "shoe",
          title: "Trail Runner Shoes, Grey, Size 10",
          color: "Grey",
          size: "10",
          price: 89,
          history: [[40, 99]],
          currentSinceDays: 2
        }
      ])
    )
    await service.run(
      Effect.gen(function* () {
        const db = yield* Database
        yield* db.run(
          `INSERT INTO products SELECT p.* REPLACE (p.id || '-' || t.i AS id, p.item_id || '-' || t.i AS item_id,
             'Trail Runner ' || t.i || ' Shoes, Grey, Size 10' AS title)
           FROM products p, range(1, ${PRODUCTS}) t(i)`
        )
        yield* db.run(
          `INSERT INTO price_history SELECT h.* REPLACE (h.product_id || '-' || t.i AS product_id)
           FROM price_history h, range(1, ${PRODUCTS}) t(i)`
        )
      })
    )
  })
  afterAll(() => service.close())

  /** Meilisearch's document deletions in this service's products index. */
  const deletionTasks = () =>
    service.run(
      SearchEngine.use((search) =>
        search.use("deletions", (client) =>
          client.tasks.getTasks({
            types: ["documentDeletion"],
            indexUids: [search.indexUid(PRODUCTS_INDEX)],
            limit: 100
          })
        )
      ).pipe(
        Effect.map((tasks) => tasks.results),
        Effect.orDie
      )
    )

  it(`syncs ${PRODUCTS.toLocaleString()} products without holding the event loop over ${BOUND_MS} ms of CPU`, async () => {
    const watch = watchMainThread()
    const result = await service.run(SearchSync.use((sync) => sync.syncProducts()))
    const stretch = watch.stop()
    expect(result).toMatchObject({ upserted: PRODUCTS, deleted: 0 })
    expect(stretch.longestOutsideGcMs, longestOf(stretch)).toBeLessThan(BOUND_MS)
  })

  it(`removes ${PRODUCTS.toLocaleString()} products' models from the index a page of ids at a time, without holding the event loop over ${BOUND_MS} ms of CPU`, async () => {
    await service.run(
      Effect.gen(function* () {
        const db = yield* Database
        yield* db.run(`DELETE FROM price_history WHERE product_id IN (SELECT id FROM products WHERE item_id <> 'shoe')`)
        yield* db.run(`DELETE FROM products WHERE item_id <> 'shoe'`)
      })
    )
    const deletionsBefore = await deletionTasks()
    const watch = watchMainThread()
    const result = await service.run(SearchSync.use((sync) => sync.syncProducts()))
    const stretch = watch.stop()
    expect(result).toMatchObject({ deleted: PRODUCTS - 1 })
    expect(stretch.longestOutsideGcMs, longestOf(stretch)).toBeLessThan(BOUND_MS)
    // 20,000 ids read and sent at once held the event loop 27-41 ms (load 7): a page at a time
    const pages = (await deletionTasks()).filter(
      (task) => task.uid > Math.max(-1, ...deletionsBefore.map((t) => t.uid))
    )
    const inOrder = pages.toSorted((a, b) => a.uid - b.uid)
    expect(inOrder.map((task) => task.details?.providedIds)).toEqual([...Array(9).fill(2_000), 1_999])
    expect(pages.every((task) => task.status === "succeeded")).toBe(true)
  })
})
