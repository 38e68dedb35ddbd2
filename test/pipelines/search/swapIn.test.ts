import { Effect } from "effect"
import { setTimeout } from "node:timers/promises"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SearchEngine } from "../../../infra/SearchEngine.ts"
import { SearchSync } from "../../../pipelines/search/SearchSync.ts"
import { PRODUCTS_INDEX } from "../../../readModel/indexes.ts"
import { insertProducts, type FixtureProduct } from "../../support/catalogFixtures.ts"
import { getJson } from "../../support/http.ts"
import { startService, type RunningService } from "../../support/TestService.ts"

// A sync with no live products index (a first sync, or after the index was
// lost) builds a fresh index with its settings and puts it in place. Searches
// asked meanwhile must answer (an empty catalog before, the products after),
// never 503: a live index that exists without the products settings (no
// filterable attributes) fails every filtered search.

const products: Array<FixtureProduct> = [
  { itemId: "e1", title: "Acme Wireless Earbuds", brand: "Acme", category: "Electronics", price: 79 },
  { itemId: "e2", title: "Bolt Sport Earbuds", brand: "Bolt", category: "Electronics", price: 49 },
  { itemId: "g1", title: "Coffee grinder", category: "Home", price: 39 }
]

/** Rebuilds while searches run: a few rounds, as the moment a search could meet a half-placed index is short. */
const ROUNDS = 3
const SEARCHERS = 4
/**
 * Each searcher's pause between searches: together a search every few ms,
 * many within the tens of ms an index without settings was live, without
 * spinning a core for as long as the syncs wait in a shared Meilisearch.
 */
const PAUSE_MS = 10

describe("putting a built products index in place when none is live", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService()
    await service.run(insertProducts(products))
  })
  afterAll(() => service.close())

  const meili = <A>(f: (search: typeof SearchEngine.Service) => Effect.Effect<A, unknown>) =>
    service.run(SearchEngine.use(f) as Effect.Effect<A, never, SearchEngine>)

  const latestTaskUid = () =>
    meili((search) => search.use("latest task", (client) => client.tasks.getTasks({ limit: 1 }))).then(
      (tasks) => tasks.results[0]?.uid ?? -1
    )

  it("answers every search while it rebuilds, and never creates the live index without its settings", async () => {
    const prefix = service.config.meiliIndexPrefix
    const live = `${prefix}${PRODUCTS_INDEX}`
    const before = await latestTaskUid()

    const failures: Array<string> = []
    let answered = 0
    let syncing = true
    const searcher = async () => {
      while (syncing) {
        const res = await getJson(`${service.url}/api/search?q=earbuds`)
        if (res.status === 200) answered++
        else failures.push(`${res.status} ${JSON.stringify(res.body)}`)
        await setTimeout(PAUSE_MS)
      }
    }
    const searchers = Array.from({ length: SEARCHERS }, searcher)
    for (let round = 0; round < ROUNDS; round++) {
      // No live index: the sync rebuilds and must put the built one in place.
      // (In the first round there is none yet: the deletion task then fails, which is fine.)
      await meili((search) =>
        search.use(`drop ${live}`, (client) => client.deleteIndex(live).waitTask({ timeout: 60_000, interval: 25 }))
      )
      const result = await service.run(SearchSync.use((sync) => sync.syncProducts()))
      expect(result.upserted).toBe(3)
    }
    syncing = false
    await Promise.all(searchers)

    expect(failures).toEqual([])
    expect(answered).toBeGreaterThan(ROUNDS)
    const found = await getJson(`${service.url}/api/search?q=earbuds`)
    expect(found.status).toBe(200)
    expect(JSON.stringify(found.body)).toContain("Acme Wireless Earbuds")

    // Each rebuild created one index, the one it built with its settings; an
    // empty live index created to swap with would be a second.
    const created = await meili((search) =>
      search.use("index creations", (client) => client.tasks.getTasks({ types: ["indexCreation"], limit: 1000 }))
    )
    const ours = created.results.filter((task) => task.uid > before && task.indexUid?.startsWith(prefix))
    expect(ours).toHaveLength(ROUNDS)
    const indexes = await meili((search) => search.use("list", (client) => client.getRawIndexes({ limit: 1000 })))
    expect(indexes.results.map((index) => index.uid).filter((uid) => uid.startsWith(prefix))).toEqual([live])
  })
})
