import { Context, Effect, Layer } from "effect"
import { newTrackingId } from "../../../domain/links/trackingId.ts"
import { Database, type DatabaseError } from "../../../infra/Database.ts"

// Stored tracking links. One row per (partner or anonymous, tag, normalised
// URL): asking again returns the same link (the dedup index enforces it; the
// serialised writer transaction makes the check-then-insert race-free).
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
}

/** The tag of links made without an API key. */
export const ANONYMOUS_TAG = "anon"

export interface NewLink {
  readonly partnerId: number | null
  readonly tag: string
  readonly originalUrl: string
  readonly normalizedUrl: string
  readonly destinationUrl: string
  readonly programId: string | null
  readonly networkId: string | null
  readonly productId: string | null
  readonly source: "match" | "feed"
  /** The affiliate URL for the new id (it carries the id as the network's sub-id). */
  readonly affiliateUrlFor: (trackingId: string) => string
}

const COLUMNS = `id, partner_id, tag, original_url, normalized_url, destination_url, affiliate_url,
  program_id, network_id, product_id, source, created_at`

const toLink = (row: Record<string, any>): TrackingLink => ({
  id: row.id,
  partnerId: row.partner_id === null ? null : Number(row.partner_id),
  tag: row.tag,
  originalUrl: row.original_url,
  normalizedUrl: row.normalized_url,
  destinationUrl: row.destination_url,
  affiliateUrl: row.affiliate_url,
  programId: row.program_id,
  networkId: row.network_id,
  productId: row.product_id,
  source: row.source,
  createdAt: row.created_at
})

export class TrackingLinks extends Context.Service<TrackingLinks, {
  getOrCreate(link: NewLink): Effect.Effect<{ readonly link: TrackingLink; readonly created: boolean }, DatabaseError>
  findById(id: string): Effect.Effect<TrackingLink | undefined, DatabaseError>
  /** A partner's links, or anonymous match links when partnerId is null; newest first. */
  list(partnerId: number | null, limit: number, offset: number): Effect.Effect<{ rows: ReadonlyArray<TrackingLink>; total: number }, DatabaseError>
}>()("app/api/v1/TrackingLinks") {
  static readonly layer = Layer.effect(
    TrackingLinks,
    Effect.gen(function*() {
      const db = yield* Database
      const findExisting = (tx: { query: Database["Service"]["query"] }, link: NewLink) =>
        tx.query<Record<string, any>>(
          `SELECT ${COLUMNS} FROM tracking_links
           WHERE COALESCE(partner_id, 0) = $1 AND tag = $2 AND normalized_url = $3`,
          [link.partnerId ?? 0, link.tag, link.normalizedUrl]
        )

      const getOrCreate = (link: NewLink) =>
        Effect.gen(function*() {
          // Most repeats are found by a reader without taking the writer lock.
          const seen = yield* findExisting(db, link)
          if (seen.length > 0) return { link: toLink(seen[0]), created: false }
          return yield* db.transaction((tx) =>
            Effect.gen(function*() {
              const again = yield* findExisting(tx, link)
              if (again.length > 0) return { link: toLink(again[0]), created: false }
              const id = newTrackingId()
              const rows = yield* tx.query<Record<string, any>>(
                `INSERT INTO tracking_links (${COLUMNS})
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now()) RETURNING ${COLUMNS}`,
                [
                  id,
                  link.partnerId,
                  link.tag,
                  link.originalUrl,
                  link.normalizedUrl,
                  link.destinationUrl,
                  link.affiliateUrlFor(id),
                  link.programId,
                  link.networkId,
                  link.productId,
                  link.source
                ]
              )
              return { link: toLink(rows[0]), created: true }
            })
          )
        })

      const findById = (id: string) =>
        Effect.map(
          db.query<Record<string, any>>(`SELECT ${COLUMNS} FROM tracking_links WHERE id = $1`, [id]),
          (rows) => rows.length > 0 ? toLink(rows[0]) : undefined
        )

      const list = (partnerId: number | null, limit: number, offset: number) =>
        Effect.gen(function*() {
          const where = partnerId === null ? "partner_id IS NULL AND source = 'match'" : "partner_id = $1"
          const params = partnerId === null ? [] : [partnerId]
          const rows = yield* db.query<Record<string, any>>(
            `SELECT ${COLUMNS} FROM tracking_links WHERE ${where} ORDER BY created_at DESC, id
             LIMIT ${limit} OFFSET ${offset}`,
            params
          )
          const total = yield* db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM tracking_links WHERE ${where}`, params)
          return { rows: rows.map(toLink), total: total[0]?.n ?? 0 }
        })

      return TrackingLinks.of({ getOrCreate, findById, list })
    })
  )
}
