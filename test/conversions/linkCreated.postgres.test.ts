import { Effect, Option, Redacted } from "effect"
import postgres from "postgres"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database } from "../../infra/Database.ts"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { TrackingLinks } from "../../links/TrackingLinks.ts"
import { insertCatalog } from "../support/catalogFixture.ts"
import { postJson } from "../support/http.ts"
import { type RunningService, startService } from "../support/TestService.ts"
import { conversionBeforeItsLink } from "./fixtures.ts"

// Links announce what they created (LinkCreated); the conversions feature
// attributes conversions that named a new link in its own fiber. So while
// the ledger is held (here: another session locks the conversions table, as
// a long report import would hold its rows), links are still created,
// matched and followed at once, and the late conversion is attributed as
// soon as the ledger is free again.
let service: RunningService
let sql: postgres.Sql
beforeAll(async () => {
  service = await startService()
  sql = postgres(Redacted.value(Option.getOrThrow(service.config.databaseUrl)), { max: 2, onnotice: () => {} })
  await service.run(insertCatalog())
  await service.run(Effect.flatMap(ProgramMatcher, (matcher) => matcher.reload))
})
afterAll(async () => {
  await sql?.end()
  await service?.close()
})

const trackingIdOf = (id: string) =>
  service.run(
    Effect.flatMap(Database, (db) =>
      db.query<{ tracking_id: string | null }>("SELECT tracking_id FROM conversions WHERE id = $1", [id])
    )
  )

const restoreLink = (id: string) =>
  service.run(
    Effect.flatMap(TrackingLinks, (links) => {
      const url = `https://shop.example.com/${id}`
      return links.getOrCreate({
        id,
        partnerId: null,
        tag: "anon",
        originalUrl: url,
        normalizedUrl: url,
        destinationUrl: url,
        programId: null,
        networkId: "dev",
        productId: null,
        source: "match",
        affiliateUrlFor: () => url
      })
    })
  )

/** Resolves with the value, or rejects after `ms`: the caller must not wait on the held ledger. */
const within = <A>(ms: number, promise: Promise<A>) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms))
  ])

describe("LinkCreated: re-attribution off the link-creation path", () => {
  it("links are created, matched and followed while the ledger is held; the late conversion is attributed after", async () => {
    // A conversion naming a link that does not exist yet (fixtures write the link past TrackingLinks: a different id here).
    await service.run(conversionBeforeItsLink("HELD-1", "FixtureLink1"))
    await service.run(
      Effect.flatMap(Database, (db) =>
        db.run("UPDATE conversions SET click_ref = 'HeldLink0001' WHERE id = 'dev:HELD-1'")
      )
    )
    expect(await trackingIdOf("dev:HELD-1")).toEqual([{ tracking_id: null }])

    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let locked!: () => void
    const isLocked = new Promise<void>((resolve) => (locked = resolve))
    const holder = sql.begin(async (tx) => {
      await tx`LOCK TABLE conversions IN ACCESS EXCLUSIVE MODE`
      locked()
      await released
    })
    await isLocked
    try {
      const restored = await within(3_000, restoreLink("HeldLink0001"))
      expect(restored.created).toBe(true)
      const matched = await within(
        3_000,
        postJson(`${service.url}/api/v1/links/match`, { url: "https://lamp-shop.com/while-held" })
      )
      expect(matched.status).toBe(200)
      const followed = await within(
        3_000,
        fetch(`${service.url}/t/${matched.body.link.tracking_id}`, { method: "HEAD", redirect: "manual" })
      )
      expect(followed.status).toBe(302)
    } finally {
      release()
      await holder
    }

    let attributed: Array<{ tracking_id: string | null }> = []
    for (let i = 0; i < 250; i++) {
      attributed = await trackingIdOf("dev:HELD-1")
      if (attributed[0]?.tracking_id !== null) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(attributed).toEqual([{ tracking_id: "HeldLink0001" }])
  })
})
