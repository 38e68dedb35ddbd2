import { Context, Deferred, Effect, Layer, Schema } from "effect"
import { dropCredentialParams } from "../domain/links/credentialParams.ts"
import { newTrackingId } from "../domain/links/trackingId.ts"
import { CountRow, NullableNumber, NullableText, NullableTimestamp, Text, Timestamp } from "../infra/columns.ts"
import { Database, DatabaseError, type Tx } from "../infra/Database.ts"
import { CatalogEvents } from "../infra/events/CatalogEvents.ts"
import { LinkEvents } from "../infra/events/LinkEvents.ts"
import { announceLinkChanges, OwnLinkChanges } from "./LinkChangeVersion.ts"
import { SERVICE_TAGS } from "../domain/links/serviceTags.ts"

// Stored tracking links. One row per (partner or anonymous, tag, normalised
// URL): asking again returns the same link, on any replica. The unique index
// tracking_links_dedup decides (see skipDuplicateLinks), never this process's memory.
export interface TrackingLink {
  readonly id: string
  readonly partnerId: number | null
  readonly tag: string
  readonly originalUrl: string
  readonly normalizedUrl: string
  readonly destinationUrl: string
  readonly affiliateUrl: string
  readonly programId: string | null
  readonly networkId: string | null
  readonly productId: string | null
  readonly source: "match" | "feed"
  readonly createdAt: Date
  /** Set while no active programme covers the destination: /t/ then goes to destinationUrl, unaffiliated. */
  readonly unaffiliatedAt: Date | null
}

/** A stored link moved to another programme, or to none (LinkReresolver). */
export interface LinkReassignment {
  readonly trackingId: string
  readonly oldProgramId: string | null
  readonly oldNetworkId: string | null
  readonly oldAffiliateUrl: string
  /** null: no active programme; the link redirects to its plain destination. */
  readonly newProgramId: string | null
  readonly newNetworkId: string | null
  readonly newAffiliateUrl: string
  readonly reason: string
}

/** Tracking ids reassigned by this process (another replica's changes come as a CatalogEvents event). */
export type Reassigned = ReadonlyArray<string>

/** The latest reassignment of a link, as GET /api/v1/links shows it. */
export interface LinkChange {
  readonly changedAt: Date
  readonly oldProgramId: string | null
  readonly newProgramId: string | null
  readonly reason: string
}

/** The tag of links made without an API key. */
export const ANONYMOUS_TAG = SERVICE_TAGS.anonymous

export interface NewLink {
  readonly partnerId: number | null
  readonly tag: string
  /** As submitted; stored without credential-looking parameters (domain/links/credentialParams.ts). */
  readonly originalUrl: string
  readonly normalizedUrl: string
  readonly destinationUrl: string
  readonly programId: string | null
  readonly networkId: string | null
  readonly productId: string | null
  readonly source: "match" | "feed"
  /**
   * An id chosen elsewhere (a link restored from a backup or copied from
   * another replica keeps its id, so conversions reported under it find it);
   * a fresh random id otherwise.
   */
  readonly id?: string
  /** The affiliate URL for the new id (it carries the id as the network's sub-id). */
  readonly affiliateUrlFor: (trackingId: string) => string
}

const MEMO_LIMIT = 100_000
const BATCH = 500

const INSERTED = `id, partner_id, tag, original_url, normalized_url, destination_url, affiliate_url,
  program_id, network_id, product_id, source, created_at`
const COLUMNS = `${INSERTED}, unaffiliated_at`

const LinkRow = Schema.Struct({
  id: Text,
  partner_id: NullableNumber,
  tag: Text,
  original_url: Text,
  normalized_url: Text,
  destination_url: Text,
  affiliate_url: Text,
  program_id: NullableText,
  network_id: NullableText,
  product_id: NullableText,
  source: Schema.Literals(["match", "feed"]),
  created_at: Timestamp,
  unaffiliated_at: NullableTimestamp
})

const toLink = (row: typeof LinkRow.Type): TrackingLink => ({
  id: row.id,
  partnerId: row.partner_id,
  tag: row.tag,
  originalUrl: row.original_url,
  normalizedUrl: row.normalized_url,
  destinationUrl: row.destination_url,
  affiliateUrl: row.affiliate_url,
  programId: row.program_id,
  networkId: row.network_id,
  productId: row.product_id,
  source: row.source,
  createdAt: row.created_at,
  unaffiliatedAt: row.unaffiliated_at
})

const ChangeRow = Schema.Struct({
  tracking_id: Text,
  changed_at: Timestamp,
  old_program_id: NullableText,
  new_program_id: NullableText,
  reason: Text
})

const NEW_LINK_COLUMNS = {
  i: "VARCHAR",
  p: "INTEGER",
  t: "VARCHAR",
  o: "VARCHAR",
  n: "VARCHAR",
  d: "VARCHAR",
  a: "VARCHAR",
  pr: "VARCHAR",
  nw: "VARCHAR",
  pd: "VARCHAR",
  s: "VARCHAR"
} as const

/** One link per (partner or anonymous, tag, normalised URL): the dedup index's key. */
const linkKey = (partnerId: number | null, tag: string, normalizedUrl: string) =>
  `${partnerId ?? 0}\u0000${tag}\u0000${normalizedUrl}`

/**
 * PostgreSQL: two replicas inserting the same key at once both pass the
 * lookup; the unique index tracking_links_dedup lets one row in and this
 * clause makes the other insert skip it (its caller then reads the winner).
 * DuckDB: omitted, as its ON CONFLICT cannot name an expression index and
 * mishandles one whose key holds a NULL; there one process owns the file and
 * its writer transactions are serialised, so the lookup already decides.
 */
const skipDuplicateLinks = (tx: Tx) => tx.sql.skipDuplicatesOn("COALESCE(partner_id, 0), tag, normalized_url")

const TrackingIdRow = Schema.Struct({ id: Text })

const CHANGE_COLUMNS = {
  i: "VARCHAR",
  op: "VARCHAR",
  ow: "VARCHAR",
  oa: "VARCHAR",
  np: "VARCHAR",
  nn: "VARCHAR",
  na: "VARCHAR",
  r: "VARCHAR"
} as const

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
      const linkEvents = yield* LinkEvents
      const ownLinkChanges = yield* OwnLinkChanges
      // Links are never deleted and change only through `reassign` (which
      // forgets this memo), so a repeat match can be answered from memory
      // (bounded: forgotten wholesale when full, then re-read).
      const known = new Map<string, TrackingLink>()
      const remember = (key: string, link: TrackingLink) => {
        if (known.size >= MEMO_LIMIT) known.clear()
        known.set(key, link)
      }

      // New links are written by group commit: concurrent requests queue here
      // and one fiber inserts everything queued so far in a single transaction,
      // so a burst of N new links costs one COMMIT, not N serialised ones.
      type Created = { readonly link: TrackingLink; readonly created: boolean }
      interface Pending {
        readonly key: string
        readonly link: NewLink
        readonly done: Deferred.Deferred<Created, DatabaseError>
      }
      let pending: Array<Pending> = []
      let writing = false
      const scope = yield* Effect.scope

      const keyOf = (row: TrackingLink) => linkKey(row.partnerId, row.tag, row.normalizedUrl)
      const findByKeys = (tx: Tx, keys: ReadonlyArray<NewLink>) =>
        tx.queryAs(
          LinkRow,
          `SELECT ${COLUMNS} FROM tracking_links t
           JOIN ${tx.jsonRows("$1", { p: "INTEGER", t: "VARCHAR", u: "VARCHAR" })} k
             ON COALESCE(t.partner_id, 0) = k.p AND t.tag = k.t AND t.normalized_url = k.u`,
          [JSON.stringify(keys.map((link) => ({ p: link.partnerId ?? 0, t: link.tag, u: link.normalizedUrl })))]
        )

      // One lookup of the keys already stored, one multi-row INSERT of the
      // rest (rows as one JSON parameter) whatever the batch size; a third
      // statement only when another replica inserted one of the keys between
      // the two (PostgreSQL: the unique index decides, ON CONFLICT skips it).
      const insertBatch = (batch: ReadonlyArray<Pending>) =>
        db.transaction((tx) =>
          Effect.gen(function* () {
            const results = new Map<string, Created>()
            const existing = yield* findByKeys(
              tx,
              batch.map((item) => item.link)
            )
            for (const row of existing) {
              const link = toLink(row)
              results.set(keyOf(link), { link, created: false })
            }
            const fresh = new Map<string, { id: string; link: NewLink }>()
            for (const item of batch) {
              if (!results.has(item.key) && !fresh.has(item.key))
                fresh.set(item.key, { id: item.link.id ?? newTrackingId(), link: item.link })
            }
            if (fresh.size === 0) return results
            const rows = yield* tx.queryAs(
              LinkRow,
              `INSERT INTO tracking_links (${INSERTED})
               SELECT i, p, t, o, n, d, a, pr, nw, pd, s, now()
               FROM ${tx.jsonRows("$1", NEW_LINK_COLUMNS)}
               ${skipDuplicateLinks(tx)}
               RETURNING ${COLUMNS}`,
              [
                JSON.stringify(
                  // Key order: two replicas inserting overlapping batches take the index locks in the same order (no deadlock).
                  [...fresh.entries()]
                    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
                    .map(([, { id, link }]) => ({
                      i: id,
                      p: link.partnerId,
                      t: link.tag,
                      o: dropCredentialParams(link.originalUrl),
                      n: link.normalizedUrl,
                      d: link.destinationUrl,
                      a: link.affiliateUrlFor(id),
                      pr: link.programId,
                      nw: link.networkId,
                      pd: link.productId,
                      s: link.source
                    }))
                )
              ]
            )
            for (const row of rows) {
              const link = toLink(row)
              results.set(keyOf(link), { link, created: true })
            }
            // Read committed: this statement sees the row the other replica committed.
            const lost = [...fresh.entries()].flatMap(([key, { link }]) => (results.has(key) ? [] : [link]))
            if (lost.length > 0) {
              for (const row of yield* findByKeys(tx, lost)) {
                const link = toLink(row)
                results.set(keyOf(link), { link, created: false })
              }
            }
            return results
          })
        )

      // A conversion can name a link before the link exists here (made on
      // another replica, restored from a backup): the conversions feature
      // attributes those in its own fiber, so the caller gets the link at once.
      const announceCreated = (results: ReadonlyMap<string, Created>) =>
        linkEvents.publishCreated({
          trackingIds: [...results.values()].flatMap(({ link, created }) => (created ? [link.id] : []))
        })

      const writer: Effect.Effect<void> = Effect.gen(function* () {
        while (pending.length > 0) {
          const batch = pending.slice(0, BATCH)
          pending = pending.slice(batch.length)
          const exit = yield* Effect.exit(insertBatch(batch))
          if (exit._tag === "Success") yield* announceCreated(exit.value)
          const firstOfKey = new Set<string>()
          for (const item of batch) {
            if (exit._tag === "Failure") {
              yield* Deferred.failCause(item.done, exit.cause)
              continue
            }
            const result = exit.value.get(item.key)
            if (result === undefined) {
              yield* Deferred.fail(
                item.done,
                new DatabaseError({ message: "tracking link neither found nor inserted", cause: item.key })
              )
              continue
            }
            remember(item.key, result.link)
            // Only the first request for a key created the link; the others see it as existing.
            const created = result.created && !firstOfKey.has(item.key)
            firstOfKey.add(item.key)
            yield* Deferred.succeed(item.done, { link: result.link, created })
          }
        }
        writing = false
      })

      const getOrCreate = (link: NewLink) =>
        Effect.gen(function* () {
          const key = linkKey(link.partnerId, link.tag, link.normalizedUrl)
          const memo = known.get(key)
          if (memo !== undefined) return { link: memo, created: false }
          // Not in memory (new, or made before a restart): the batch writer
          // looks it up and inserts only what is really new.
          const done = Deferred.makeUnsafe<Created, DatabaseError>()
          pending.push({ key, link, done })
          if (!writing) {
            writing = true
            yield* Effect.forkIn(Effect.uninterruptible(writer), scope)
          }
          return yield* Deferred.await(done)
        })

      const findById = (id: string) =>
        Effect.map(db.queryAs(LinkRow, `SELECT ${COLUMNS} FROM tracking_links WHERE id = $1`, [id]), (rows) =>
          rows.length > 0 ? toLink(rows[0]) : undefined
        )

      const list = (partnerId: number, limit: number, offset: number) =>
        Effect.gen(function* () {
          const where = "partner_id = $1"
          const params = [partnerId]
          const rows = yield* db.queryAs(
            LinkRow,
            `SELECT ${COLUMNS} FROM tracking_links WHERE ${where} ORDER BY created_at DESC, id
             LIMIT ${Math.trunc(limit)} OFFSET ${Math.trunc(offset)}`,
            params
          )
          const total = yield* db.queryAs(
            CountRow,
            `SELECT count(*)::INTEGER AS n FROM tracking_links WHERE ${where}`,
            params
          )
          const changes = new Map<string, LinkChange>()
          if (rows.length > 0) {
            const latest = yield* db.queryAs(
              ChangeRow,
              `SELECT tracking_id, changed_at, old_program_id, new_program_id, reason FROM (
                 SELECT *, row_number() OVER (PARTITION BY tracking_id ORDER BY changed_at DESC) AS latest
                 FROM link_program_changes WHERE tracking_id IN ${db.jsonList("$1")}
               ) changes WHERE latest = 1`,
              [JSON.stringify(rows.map((row) => row.id))]
            )
            for (const row of latest) {
              changes.set(row.tracking_id, {
                changedAt: row.changed_at,
                oldProgramId: row.old_program_id,
                newProgramId: row.new_program_id,
                reason: row.reason
              })
            }
          }
          return { rows: rows.map(toLink), total: total[0]?.n ?? 0, changes }
        })

      const listeners: Array<(reassigned: Reassigned) => void> = []
      const tell = (reassigned: Reassigned) => {
        // Repeat matches must not answer from the memo with the old affiliate URL.
        known.clear()
        for (const listener of listeners) listener(reassigned)
      }

      // Another process moved links (which ones is not known here): repeat matches read the store again.
      yield* (yield* CatalogEvents).subscribe("repeat-match memo", ({ change }) =>
        Effect.sync(() => {
          if (change._tag === "Followed" && change.linksMoved) known.clear()
        })
      )

      const reassign = (changes: ReadonlyArray<LinkReassignment>, at: Date) =>
        Effect.gen(function* () {
          if (changes.length === 0) return []
          const rows = (list: ReadonlyArray<LinkReassignment>) =>
            JSON.stringify(
              list.map((change) => ({
                i: change.trackingId,
                op: change.oldProgramId,
                ow: change.oldNetworkId,
                oa: change.oldAffiliateUrl,
                np: change.newProgramId,
                nn: change.newNetworkId,
                na: change.newAffiliateUrl,
                r: change.reason
              }))
            )
          const applied = yield* db.transaction((tx) =>
            Effect.gen(function* () {
              // Only links still as the caller read them move: a second pass
              // (another replica's start-up, an overlapping feed run) that
              // computed the same change finds them moved and records nothing.
              // unaffiliated_at keeps the first time a link lost its programme while it stays without one.
              const moved = yield* tx.queryAs(
                TrackingIdRow,
                `UPDATE tracking_links t SET program_id = c.np, network_id = c.nn, affiliate_url = c.na,
                   unaffiliated_at = CASE WHEN c.np IS NULL THEN coalesce(t.unaffiliated_at, $2::TIMESTAMPTZ) END
                 FROM ${tx.jsonRows("$1", CHANGE_COLUMNS)} c
                 WHERE t.id = c.i AND t.program_id IS NOT DISTINCT FROM c.op AND t.affiliate_url = c.oa
                 RETURNING t.id`,
                [rows(changes), at.toISOString()]
              )
              const ids = new Set(moved.map((row) => row.id))
              const recorded = changes.filter((change) => ids.has(change.trackingId))
              if (recorded.length === 0) return { recorded, version: undefined }
              yield* tx.run(
                `INSERT INTO link_program_changes (tracking_id, changed_at, old_program_id, old_network_id,
                   new_program_id, new_network_id, reason, old_affiliate_url, new_affiliate_url)
                 SELECT i, $2::TIMESTAMPTZ, op, ow, np, nn, r, oa, na FROM ${tx.jsonRows("$1", CHANGE_COLUMNS)}`,
                [rows(recorded), at.toISOString()]
              )
              // other replicas forget their cached destinations (CatalogChanges.ts follows this version)
              return { recorded, version: yield* announceLinkChanges(tx) }
            })
          )
          if (applied.recorded.length === 0) return applied.recorded
          ownLinkChanges.record(applied.version)
          tell(applied.recorded.map((change) => change.trackingId))
          return applied.recorded
        })

      return TrackingLinks.of({
        getOrCreate,
        findById,
        list,
        reassign,
        onReassigned: (listener) => {
          listeners.push(listener)
        }
      })
    })
  )
}
