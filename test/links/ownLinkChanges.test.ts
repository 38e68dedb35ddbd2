import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { OwnLinkChanges } from "../../links/LinkChangeVersion.ts"

const own = () => Effect.runSync(Effect.provide(Effect.service(OwnLinkChanges), OwnLinkChanges.layer))

// The follower drops every cached link when the shared link version moved by
// another replica's hand; our own changes invalidated their links one by one
// already, so a move made only of ours must not (it cost a settings read per
// repeat match after every second deletion in a poll interval).
describe("own link changes", () => {
  it("several of our changes between two polls are all ours", () => {
    const changes = own()
    changes.record(8)
    changes.record(9)
    changes.record(10)
    expect(changes.allOwnSince(7, 10)).toBe(true)
    // each is taken once
    expect(changes.allOwnSince(7, 10)).toBe(false)
  })

  it("another replica's change among ours makes the move not ours", () => {
    const changes = own()
    changes.record(8)
    changes.record(10) // 9 was another replica's
    expect(changes.allOwnSince(7, 10)).toBe(false)
    expect(changes.allOwnSince(9, 10)).toBe(true)
  })

  it("an unknown start, no move or a move backwards is not ours", () => {
    const changes = own()
    changes.record(3)
    expect(changes.allOwnSince(undefined, 3)).toBe(false)
    expect(changes.allOwnSince(3, 3)).toBe(false)
    expect(changes.allOwnSince(4, 3)).toBe(false)
    expect(changes.allOwnSince(2, 3)).toBe(true)
  })
})
