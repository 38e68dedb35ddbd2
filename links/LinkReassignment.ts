import { Effect } from "effect"
import type { OwnLinkChanges } from "./LinkChangeVersion.ts"
import type { RepeatMatchMemo } from "./RepeatMatchMemo.ts"
import type { LinkReassignment, TrackingLinkStore } from "./TrackingLinkStore.ts"

// Moving stored links to another programme (or none) and telling whoever
// holds copies of them: this process's repeat-match memo and listeners (the
// redirect's cache), other replicas through the link-change version the move
// bumped. Kept apart from the store so the SQL and the notification order
// read separately.

/** Tracking ids reassigned by this process (another replica's changes come as a CatalogEvents event). */
export type Reassigned = ReadonlyArray<string>

export const makeLinkReassignment = (deps: {
  readonly store: TrackingLinkStore
  readonly memo: RepeatMatchMemo
  readonly ownLinkChanges: OwnLinkChanges["Service"]
}) => {
  const { store, memo, ownLinkChanges } = deps
  const listeners: Array<(reassigned: Reassigned) => void> = []
  const tell = (reassigned: Reassigned) => {
    // Repeat matches must not answer from the memo with the old affiliate URL.
    memo.forget()
    for (const listener of listeners) listener(reassigned)
  }

  const reassign = (changes: ReadonlyArray<LinkReassignment>, at: Date) =>
    Effect.gen(function* () {
      if (changes.length === 0) return []
      const applied = yield* store.moveLinks(changes, at)
      if (applied.recorded.length === 0) return applied.recorded
      ownLinkChanges.record(applied.version)
      tell(applied.recorded.map((change) => change.trackingId))
      return applied.recorded
    })

  const onReassigned = (listener: (reassigned: Reassigned) => void) => {
    listeners.push(listener)
  }

  return { reassign, onReassigned }
}
