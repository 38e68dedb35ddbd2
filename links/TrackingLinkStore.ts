import { Effect, Schema } from "effect"
import { dropCredentialParams } from "../domain/links/credentialParams.ts"
import { newTrackingId } from "../domain/links/trackingId.ts"
import { CountRow, NullableNumber, NullableText, NullableTimestamp, Text, Timestamp } from "../infra/columns.ts"
import type { DatabaseShape, Tx } from "../infra/Database.ts"
import type { LinkChangeVersion } from "./LinkChangeVersion.ts"

// The SQL of tracking links: reading, inserting (a batch at a time) and
// moving stored links. No memory of its own (the repeat-match memo, the
// group-commit writer and the reassignment listeners are their own files),
// so this file reads as what the tables hold and how each statement changes them.
//
// One row per (partner or anonymous, tag, normalised URL, market): asking
// again returns the same link, on any replica. The market is set only where
// the visitor's market chose the programme (domain/matching/resolve.ts,
// linkMarket); every other link serves all markets. The unique index
// tracking_links_market_dedup decides (see skipDuplicateLinks), never this process's memory.

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
  /** The shoppers' country this link was made for (ISO 3166-1 alpha-2); null: every market's. */
  readonly market: string | null
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

/** The latest reassignment of a link, as GET /api/v1/links shows it. */
export interface LinkChange {
  readonly changedAt: Date
  readonly oldProgramId: string | null
  readonly newProgramId: string | null
  readonly reason: string
}

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
  /** The visitor's country when it chose the programme (resolve.ts, linkMarket); absent or null: every market's. */
  readonly market?: string | null
  /**
   * An id chosen elsewhere (a link restored from a backup or copied from
   * another replica keeps its id, so conversions reported under it find it);
   * a fresh random id otherwise.
   */
  readonly id?: string
  /** The affiliate URL for the new id (it carries the id as the network's sub-id). */
  readonly affiliateUrlFor: (trackingId: string) => string
}

const INSERTED = `id, partner_id, tag, original_url, normalized_url, destination_url, affiliate_url,
  program_id, network_id, product_id, source, market, created_at`
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
  market: NullableText,
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
  market: row.market,
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
  s: "VARCHAR",
  m: "VARCHAR"
} as const

/** One link per (partner or anonymous, tag, normalised URL, market or none): the dedup index's key. */
export const linkKey = (partnerId: number | null, tag: string, normalizedUrl: string, market: string | null = null) =>
  `${partnerId ?? 0}\u0000${tag}\u0000${normalizedUrl}\u0000${market ?? ""}`

/**
 * PostgreSQL: two replicas inserting the same key at once both pass the
 * lookup; the unique index tracking_links_market_dedup lets one row in and this
 * clause makes the other insert skip it (its caller then reads the winner).
 * DuckDB: omitted, as its ON CONFLICT cannot name an expression index and
 * mishandles one whose key holds a NULL; there one process owns the file and
 * its writer transactions are serialised, so the lookup already decides.
 */
const skipDuplicateLinks = (tx: Tx) =>
  tx.sql.skipDuplicatesOn("COALESCE(partner_id, 0), tag, normalized_url, COALESCE(market, '')")

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

/** A link asked for, under the key it was asked for (linkKey). */
export interface KeyedNewLink {
  readonly key: string
  readonly link: NewLink
}

/** What a batch insert answered for one key: the stored link, and whether this batch inserted it. */
export interface Created {
  readonly link: TrackingLink
  readonly created: boolean
}

export type TrackingLinkStore = ReturnType<typeof makeTrackingLinkStore>

/** `linkChanges`: tells other replicas that links moved (nothing to tell in one process). */
export const makeTrackingLinkStore = (db: DatabaseShape, linkChanges: LinkChangeVersion["Service"]) => {
  const keyOf = (row: TrackingLink) => linkKey(row.partnerId, row.tag, row.normalizedUrl, row.market)
  const findByKeys = (tx: Tx, keys: ReadonlyArray<NewLink>) =>
    tx.queryAs(
      LinkRow,
      `SELECT ${COLUMNS} FROM tracking_links t
       JOIN ${tx.jsonRows("$1", { p: "INTEGER", t: "VARCHAR", u: "VARCHAR", m: "VARCHAR" })} k
         ON COALESCE(t.partner_id, 0) = k.p AND t.tag = k.t AND t.normalized_url = k.u AND COALESCE(t.market, '') = k.m`,
      [
        JSON.stringify(
          keys.map((link) => ({ p: link.partnerId ?? 0, t: link.tag, u: link.normalizedUrl, m: link.market ?? "" }))
        )
      ]
    )

  // One lookup of the keys already stored, one multi-row INSERT of the
  // rest (rows as one JSON parameter) whatever the batch size; a third
  // statement only when another replica inserted one of the keys between
  // the two (PostgreSQL: the unique index decides, ON CONFLICT skips it).
  const insertBatch = (batch: ReadonlyArray<KeyedNewLink>) =>
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
           SELECT i, p, t, o, n, d, a, pr, nw, pd, s, m, now()
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
                  s: link.source,
                  m: link.market ?? null
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

  const findById = (id: string) =>
    Effect.map(db.queryAs(LinkRow, `SELECT ${COLUMNS} FROM tracking_links WHERE id = $1`, [id]), (rows) =>
      rows.length > 0 ? toLink(rows[0]) : undefined
    )

  const list = (partnerId: number, limit: number, offset: number) =>
    Effect.gen(function* () {
      // Deleted links are not listed (their history stays in the statistics, links/LinkSettings.ts).
      const where =
        "partner_id = $1 AND id NOT IN (SELECT tracking_id FROM link_settings WHERE partner_id = $1 AND deleted_at IS NOT NULL)"
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

  /**
   * Moves the links still as the caller read them and records each change,
   * in one transaction; the changes applied, and the shared link-change
   * version the move bumped (undefined where links change in one process only).
   */
  const moveLinks = (changes: ReadonlyArray<LinkReassignment>, at: Date) => {
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
    return db.transaction((tx) =>
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
        return { recorded, version: yield* linkChanges.announce(tx) }
      })
    )
  }

  return { insertBatch, findById, list, moveLinks }
}
