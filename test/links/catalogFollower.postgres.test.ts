import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BUMP_CATALOG_VERSION_SQL } from "../../infra/CatalogVersion.ts"
import { Database } from "../../infra/Database.ts"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { TrackingLinks } from "../../links/TrackingLinks.ts"
import { insertCatalog } from "../support/catalogFixture.ts"
import { postJson } from "../support/http.ts"
import { type RunningService, startService } from "../support/TestService.ts"
import { followedDuring } from "./followedEvents.ts"

// Two replicas on one PostgreSQL: what one commits (a catalog change, links
// moved) comes out of the other's CatalogEvents as a "Followed" event from
// its one poller; the replica that made a link change does not drop its own
// caches for it (it invalidated the links it moved one by one).
const POLL_MS = 100

let a: RunningService
let b: RunningService
beforeAll(async () => {
  a = await startService({ catalogPollMs: POLL_MS })
  b = await startService({ databaseUrl: a.config.databaseUrl, catalogPollMs: POLL_MS })
  await a.run(insertCatalog())
  await a.run(Effect.flatMap(ProgramMatcher, (matcher) => matcher.reload))
})
afterAll(async () => {
  await b?.close()
  await a?.close()
})

describe("the catalog follower across replicas", () => {
  it("a catalog change committed on A is one event on B", async () => {
    const seen = await followedDuring(
      b,
      Effect.promise(() => a.run(Effect.flatMap(Database, (db) => db.run(BUMP_CATALOG_VERSION_SQL)))),
      10 * POLL_MS
    )
    expect(seen.map((event) => event.change)).toEqual([{ _tag: "Followed", catalogMoved: true, linksMoved: false }])
  })

  it("links moved on A: B is told to forget every cached link, A is not", async () => {
    const matched = (await postJson(`${a.url}/api/v1/links/match`, { url: "https://lamp-shop.com/followed" })).body
    expect(matched.matched).toBe(true)
    const made = matched.link
    const reassign = Effect.promise(() =>
      a.run(
        Effect.flatMap(TrackingLinks, (links) =>
          links.reassign(
            [
              {
                trackingId: made.tracking_id,
                oldProgramId: matched.program.id,
                oldNetworkId: matched.program.id.split(":")[0],
                oldAffiliateUrl: made.affiliate_url,
                newProgramId: null,
                newNetworkId: null,
                newAffiliateUrl: made.destination_url,
                reason: "program_closed"
              }
            ],
            new Date("2026-11-20T10:00:00Z")
          )
        )
      )
    )
    const [onA, onB] = await Promise.all([
      followedDuring(a, Effect.void, 12 * POLL_MS),
      followedDuring(b, Effect.sleep(POLL_MS).pipe(Effect.andThen(reassign)), 10 * POLL_MS)
    ])
    expect(onB.map((event) => event.change)).toEqual([{ _tag: "Followed", catalogMoved: false, linksMoved: true }])
    expect(onA).toEqual([])
  })
})
