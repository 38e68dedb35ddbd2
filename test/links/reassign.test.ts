import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database } from "../../infra/Database.ts"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { type LinkReassignment, TrackingLinks } from "../../links/TrackingLinks.ts"
import { insertCatalog } from "../support/catalogFixture.ts"
import { postJson } from "../support/http.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// TrackingLinks.reassign is what every re-resolution pass writes through.
// Two passes may compute the same change (two replicas starting, a start-up
// pass overlapping a feed run): the store must apply and record it once.
describe("TrackingLinks.reassign", () => {
  let service: RunningService
  let link: { tracking_id: string; affiliate_url: string; destination_url: string }

  beforeAll(async () => {
    service = await startService()
    await service.run(
      Effect.gen(function* () {
        yield* insertCatalog()
        yield* (yield* ProgramMatcher).reload
      })
    )
    link = (await postJson(`${service.url}/api/v1/links/match`, { url: "https://lamp-shop.com/lamps/7" })).body.link
  })
  afterAll(() => service.close())

  const changesOf = (trackingId: string) =>
    service.run(
      Effect.flatMap(Database, (db) =>
        db.query<{ reason: string; new_affiliate_url: string }>(
          "SELECT reason, new_affiliate_url FROM link_program_changes WHERE tracking_id = $1",
          [trackingId]
        )
      )
    )

  it("applies a change once: a second pass with the same change, even concurrent, records nothing", async () => {
    const change: LinkReassignment = {
      trackingId: link.tracking_id,
      oldProgramId: "awin:4101",
      oldNetworkId: "awin",
      oldAffiliateUrl: link.affiliate_url,
      newProgramId: null,
      newNetworkId: null,
      newAffiliateUrl: link.destination_url,
      reason: "program_closed"
    }
    const at = new Date("2026-11-01T12:00:00Z")
    const [first, second] = await service.run(
      Effect.flatMap(TrackingLinks, (links) =>
        Effect.all([links.reassign([change], at), links.reassign([change], at)], { concurrency: 2 })
      )
    )
    expect(first.length + second.length).toBe(1)
    expect(await changesOf(link.tracking_id)).toEqual([
      { reason: "program_closed", new_affiliate_url: link.destination_url }
    ])
    const stored = await service.run(Effect.flatMap(TrackingLinks, (links) => links.findById(link.tracking_id)))
    expect(stored).toMatchObject({ programId: null, affiliateUrl: link.destination_url })
    expect(stored?.unaffiliatedAt?.toISOString()).toBe(at.toISOString())
    const res = await fetch(`${service.url}/t/${link.tracking_id}`, { method: "HEAD", redirect: "manual" })
    expect(res.headers.get("location")).toBe(link.destination_url)
  })

  it("skips a change computed from a state that no longer holds (the link moved meanwhile)", async () => {
    const stale: LinkReassignment = {
      trackingId: link.tracking_id,
      oldProgramId: "awin:4101", // what an earlier read saw; the link is unaffiliated now
      oldNetworkId: "awin",
      oldAffiliateUrl: link.affiliate_url,
      newProgramId: "awin:4101",
      newNetworkId: "awin",
      newAffiliateUrl: link.affiliate_url,
      reason: "program_available"
    }
    const applied = await service.run(
      Effect.flatMap(TrackingLinks, (links) => links.reassign([stale], new Date("2026-11-02T12:00:00Z")))
    )
    expect(applied).toEqual([])
    expect(await changesOf(link.tracking_id)).toHaveLength(1)
  })
})
