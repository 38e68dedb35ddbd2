import { Clock, Context, Effect, Layer, Schema } from "effect"
import { NullableText, NullableTimestamp, Text } from "../infra/columns.ts"
import { Database, type DatabaseError } from "../infra/Database.ts"
import { CatalogEvents } from "../infra/events/CatalogEvents.ts"
import { Metrics } from "../infra/Metrics.ts"
import { LinkChangeVersion, OwnLinkChanges } from "./LinkChangeVersion.ts"

// What a partner sets on one of its links: a name, disabled (reversible) or
// deleted (no longer listed). Both stop the redirect: /t/ answers 410 Gone
// and counts no click (api/redirect/goneLink.ts). Neither removes a row of
// clicks or conversions: the link's history stays in the statistics.
// Stored beside the link (link_settings), so the redirect's and the match's
// reads of tracking_links are untouched; a link without a row is active, unnamed.

export type LinkState = "active" | "disabled" | "deleted"

export interface LinkSetting {
  readonly trackingId: string
  readonly name: string | null
  readonly state: LinkState
}

export { MAX_LINK_NAME_LENGTH } from "../domain/links/linkName.ts"

/** What a partner changes; an absent field keeps its value. */
export interface LinkEdit {
  readonly name?: string | null
  readonly disabled?: boolean
}

const SettingRow = Schema.Struct({
  tracking_id: Text,
  name: NullableText,
  disabled_at: NullableTimestamp,
  deleted_at: NullableTimestamp
})

const stateOf = (row: { disabled_at: Date | null; deleted_at: Date | null }): LinkState =>
  row.deleted_at !== null ? "deleted" : row.disabled_at !== null ? "disabled" : "active"

const toSetting = (row: typeof SettingRow.Type): LinkSetting => ({
  trackingId: row.tracking_id,
  name: row.name,
  state: stateOf(row)
})

export class LinkSettings extends Context.Service<
  LinkSettings,
  {
    /** Applies `edit` to the partner's link; undefined when the partner has no such link (or deleted it). */
    edit(partnerId: number, trackingId: string, edit: LinkEdit): Effect.Effect<LinkSetting | undefined, DatabaseError>
    /** Deletes the partner's link (its statistics stay); false when there is no such link. */
    remove(partnerId: number, trackingId: string): Effect.Effect<boolean, DatabaseError>
    /**
     * The partner asked for this link again (a repeat match): a deleted link
     * comes back, active, so the tracking URL handed out works. A disabled one stays disabled.
     */
    restoreIfDeleted(partnerId: number, trackingId: string): Effect.Effect<void, DatabaseError>
    /** The settings of these links (links without a row are absent: active, unnamed). */
    settingsOf(trackingIds: ReadonlyArray<string>): Effect.Effect<ReadonlyMap<string, LinkSetting>, DatabaseError>
    /** Called after a link's state changed here (the redirect's cache forgets it). */
    onChanged(listener: (trackingId: string) => void): void
  }
>()("app/links/LinkSettings") {
  static readonly layer = Layer.effect(
    LinkSettings,
    Effect.gen(function* () {
      const db = yield* Database
      const own = yield* OwnLinkChanges
      const linkChanges = yield* LinkChangeVersion
      const listeners: Array<(trackingId: string) => void> = []
      const notDeleted = makeNotDeletedMemo()
      const restoreReads = (yield* Metrics).counter(
        "link_restore_reads_total",
        "Repeat matches that read a link's settings (to restore a deleted link); the others answer from memory"
      )
      // Another replica deleted (or restored) links: which ones is not named here, forget them all.
      yield* (yield* CatalogEvents).subscribe("link settings memo", ({ change }) =>
        Effect.sync(() => {
          if (change._tag === "Followed" && change.linksMoved) notDeleted.forgetAll()
        })
      )

      // The link (only if the partner owns it) with its current settings, if any.
      const current = (partnerId: number, trackingId: string) =>
        Effect.map(
          db.queryAs(
            SettingRow,
            `SELECT l.id AS tracking_id, s.name, s.disabled_at, s.deleted_at
             FROM tracking_links l LEFT JOIN link_settings s ON s.tracking_id = l.id
             WHERE l.id = $1 AND l.partner_id = $2`,
            [trackingId, partnerId]
          ),
          (rows) => rows[0]
        )

      const write = (
        partnerId: number,
        trackingId: string,
        next: { name: string | null; disabledAt: Date | null; deletedAt: Date | null },
        stateChanged: boolean
      ) =>
        Effect.gen(function* () {
          const now = new Date(yield* Clock.currentTimeMillis).toISOString()
          const version = yield* db.transaction((tx) =>
            Effect.gen(function* () {
              yield* tx.run(
                `INSERT INTO link_settings (tracking_id, partner_id, name, disabled_at, deleted_at, updated_at)
                 VALUES ($1, $2, $3, $4::TIMESTAMPTZ, $5::TIMESTAMPTZ, $6::TIMESTAMPTZ)
                 ON CONFLICT (tracking_id) DO UPDATE SET name = EXCLUDED.name, disabled_at = EXCLUDED.disabled_at,
                   deleted_at = EXCLUDED.deleted_at, updated_at = EXCLUDED.updated_at`,
                [
                  trackingId,
                  partnerId,
                  next.name,
                  next.disabledAt?.toISOString() ?? null,
                  next.deletedAt?.toISOString() ?? null,
                  now
                ]
              )
              // Other replicas' redirect caches forget their links when the shared version moves.
              return stateChanged ? yield* linkChanges.announce(tx) : undefined
            })
          )
          if (stateChanged) {
            notDeleted.forget(trackingId)
            own.record(version)
            for (const listener of listeners) listener(trackingId)
          }
        })

      const edit = (partnerId: number, trackingId: string, change: LinkEdit) =>
        Effect.gen(function* () {
          const row = yield* current(partnerId, trackingId)
          if (row === undefined || row.deleted_at !== null) return undefined
          const now = new Date(yield* Clock.currentTimeMillis)
          const name = change.name === undefined ? row.name : change.name
          const disabledAt =
            change.disabled === undefined ? row.disabled_at : change.disabled ? (row.disabled_at ?? now) : null
          const stateChanged = (disabledAt === null) !== (row.disabled_at === null)
          yield* write(partnerId, trackingId, { name, disabledAt, deletedAt: null }, stateChanged)
          return toSetting({ tracking_id: trackingId, name, disabled_at: disabledAt, deleted_at: null })
        })

      const remove = (partnerId: number, trackingId: string) =>
        Effect.gen(function* () {
          const row = yield* current(partnerId, trackingId)
          if (row === undefined || row.deleted_at !== null) return false
          const now = new Date(yield* Clock.currentTimeMillis)
          yield* write(partnerId, trackingId, { name: row.name, disabledAt: row.disabled_at, deletedAt: now }, true)
          return true
        })

      const restoreIfDeleted = (partnerId: number, trackingId: string) =>
        Effect.gen(function* () {
          // The usual repeat match is of a link this process saw not deleted: no read at all.
          if (notDeleted.has(trackingId)) return
          const generation = notDeleted.generation()
          restoreReads.inc()
          const row = yield* current(partnerId, trackingId)
          if (row === undefined) return
          if (row.deleted_at !== null)
            yield* write(partnerId, trackingId, { name: row.name, disabledAt: null, deletedAt: null }, true)
          notDeleted.remember(trackingId, generation)
        })

      const settingsOf = (trackingIds: ReadonlyArray<string>) =>
        trackingIds.length === 0
          ? Effect.succeed(new Map<string, LinkSetting>())
          : Effect.map(
              db.queryAs(
                SettingRow,
                `SELECT tracking_id, name, disabled_at, deleted_at FROM link_settings
                 WHERE tracking_id IN ${db.jsonList("$1")}`,
                [JSON.stringify(trackingIds)]
              ),
              (rows) => new Map(rows.map((row) => [row.tracking_id, toSetting(row)]))
            )

      return LinkSettings.of({
        edit,
        remove,
        restoreIfDeleted,
        settingsOf,
        onChanged: (listener) => {
          listeners.push(listener)
        }
      })
    })
  )
}

const NOT_DELETED_LIMIT = 100_000

/**
 * Tracking ids this process knows are not deleted, so a repeat match (which
 * restores a deleted link) costs no read of link_settings, as the repeat-match
 * memo (RepeatMatchMemo.ts) costs none of tracking_links. A deletion here
 * forgets its id; one on another replica (link-change version moved) forgets
 * all. Bounded: forgotten wholesale when full, then re-read.
 */
const makeNotDeletedMemo = () => {
  const known = new Set<string>()
  // Bumped by every forget: a read that started before must not remember what it read.
  let generation = 0
  return {
    has: (trackingId: string) => known.has(trackingId),
    generation: () => generation,
    remember: (trackingId: string, readAt: number) => {
      if (readAt !== generation) return
      if (known.size >= NOT_DELETED_LIMIT) known.clear()
      known.add(trackingId)
    },
    forget: (trackingId: string) => {
      generation++
      known.delete(trackingId)
    },
    forgetAll: () => {
      generation++
      known.clear()
    }
  }
}
