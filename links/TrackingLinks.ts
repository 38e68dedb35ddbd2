import { Context, Effect, Layer } from "effect"
import { Database, type DatabaseError } from "../infra/Database.ts"
import { CatalogEvents } from "../infra/events/CatalogEvents.ts"
import { LinkEvents } from "../infra/events/LinkEvents.ts"
import { LinkChangeVersion, OwnLinkChanges } from "./LinkChangeVersion.ts"
import { SERVICE_TAGS } from "../domain/links/serviceTags.ts"
import { makeLinkGroupCommit } from "./LinkGroupCommit.ts"
import { makeLinkReassignment, type Reassigned } from "./LinkReassignment.ts"
import { makeRepeatMatchMemo } from "./RepeatMatchMemo.ts"
import {
  type LinkChange,
  type LinkReassignment,
  linkKey,
  makeTrackingLinkStore,
  type NewLink,
  type TrackingLink
} from "./TrackingLinkStore.ts"

// Stored tracking links, as the rest of the service asks for them: a repeat
// match from memory (RepeatMatchMemo.ts), a new link through the group-commit
// writer (LinkGroupCommit.ts), reads and moves in SQL (TrackingLinkStore.ts),
// reassignments with their listeners (LinkReassignment.ts).

export type { LinkChange, LinkReassignment, NewLink, Reassigned, TrackingLink }

/** The tag of links made without an API key. */
export const ANONYMOUS_TAG = SERVICE_TAGS.anonymous

export class TrackingLinks extends Context.Service<
  TrackingLinks,
  {
    getOrCreate(link: NewLink): Effect.Effect<{ readonly link: TrackingLink; readonly created: boolean }, DatabaseError>
    findById(id: string): Effect.Effect<TrackingLink | undefined, DatabaseError>
    /** A partner's links, newest first, with each link's latest change (anonymous links are never listed). */
    list(
      partnerId: number,
      limit: number,
      offset: number
    ): Effect.Effect<
      { rows: ReadonlyArray<TrackingLink>; total: number; changes: ReadonlyMap<string, LinkChange> },
      DatabaseError
    >
    /**
     * Moves links to other programmes (or none) and records each change, in one
     * transaction; then tells every `onReassigned` listener (the redirect's cache).
     * Only links still on their `old*` programme and URL move: returns the changes applied.
     */
    reassign(
      changes: ReadonlyArray<LinkReassignment>,
      at: Date
    ): Effect.Effect<ReadonlyArray<LinkReassignment>, DatabaseError>
    /**
     * Called after a change is committed here, with the ids of the links reassigned.
     */
    onReassigned(listener: (reassigned: Reassigned) => void): void
  }
>()("app/links/TrackingLinks") {
  static readonly layer = Layer.effect(
    TrackingLinks,
    Effect.gen(function* () {
      const db = yield* Database
      const store = makeTrackingLinkStore(db, yield* LinkChangeVersion)
      const memo = makeRepeatMatchMemo()
      const groupCommit = makeLinkGroupCommit({
        store,
        memo,
        linkEvents: yield* LinkEvents,
        scope: yield* Effect.scope
      })
      const { reassign, onReassigned } = makeLinkReassignment({
        store,
        memo,
        ownLinkChanges: yield* OwnLinkChanges
      })

      const getOrCreate = (link: NewLink) =>
        Effect.gen(function* () {
          const key = linkKey(link.partnerId, link.tag, link.normalizedUrl, link.market ?? null)
          const remembered = memo.get(key)
          if (remembered !== undefined) return { link: remembered, created: false }
          // Not in memory (new, or made before a restart): the batch writer
          // looks it up and inserts only what is really new.
          return yield* groupCommit.write(key, link)
        })

      // Another process moved links (which ones is not known here): repeat matches read the store again.
      yield* (yield* CatalogEvents).subscribe("repeat-match memo", ({ change }) =>
        Effect.sync(() => {
          if (change._tag === "Followed" && change.linksMoved) memo.forget()
        })
      )

      return TrackingLinks.of({
        getOrCreate,
        findById: store.findById,
        list: store.list,
        reassign,
        onReassigned
      })
    })
  )
}
