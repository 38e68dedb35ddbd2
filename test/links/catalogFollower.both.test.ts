import { Effect, type Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BUMP_CATALOG_VERSION_SQL, readCatalogVersion } from "../../infra/CatalogVersion.ts"
import { Database } from "../../infra/Database.ts"
import { linksLayer, type RunningFeature, startFeature } from "../support/featureLayers.ts"
import { followedDuring } from "./followedEvents.ts"

// The one follower of the shared catalog version: a change committed by
// another writer (here the test, writing past every in-process publisher)
// comes out of this process's CatalogEvents as one "Followed" event. The
// links feature alone (test/support/featureLayers.ts), no service around it.
const POLL_MS = 100

let service: RunningFeature<Layer.Success<typeof linksLayer>>
beforeAll(async () => {
  service = await startFeature(linksLayer, { catalogPollMs: POLL_MS })
})
afterAll(() => service?.close())

describe("the catalog follower", () => {
  it("announces one event when another writer bumps the catalog version, none while it stands still", async () => {
    const quiet = await followedDuring(service, Effect.void, 5 * POLL_MS)
    expect(quiet).toEqual([])
    const bumped = await followedDuring(
      service,
      Effect.flatMap(Database, (db) => db.run(BUMP_CATALOG_VERSION_SQL)),
      10 * POLL_MS
    )
    const version = await service.run(Effect.flatMap(Database, (db) => readCatalogVersion(db)))
    expect(bumped).toEqual([{ change: { _tag: "Followed", catalogMoved: true, linksMoved: false }, version }])
  })
})
