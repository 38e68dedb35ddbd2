import { Clock, Context, Effect, Layer, Schema } from "effect"
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"
import { dedupeTag, tagBaseFromName } from "../domain/links/partnerTag.ts"
import { Integer, NullableText, Text, Timestamp } from "../infra/columns.ts"
import { Database, DatabaseError } from "../infra/Database.ts"
import { KeyCache } from "./KeyCache.ts"

// Partners and their API keys. The key is shown once (at registration, at a
// rotation); only its sha256 is stored. A lookup hashes the presented key,
// finds the row by hash, and compares the hashes with timingSafeEqual. A
// revoked key has its hash replaced by `revoked:` and random hex, which no
// presented key hashes to (a column of its own would need an ALTER of
// partners, whose WAL DuckDB 1.5 cannot replay after a crash).
export interface Partner {
  readonly id: number
  readonly name: string
  readonly tag: string
  readonly email: string
  readonly appUrl: string | null
  readonly description: string | null
  readonly revenueShare: number
  readonly createdAt: Date
}

export interface Registration {
  readonly name: string
  readonly email: string
  readonly appUrl: string | null
  readonly description: string | null
}

/** ak_ + 32 random bytes in base64url: 46 characters, 256 bits. */
export const API_KEY_PATTERN = /^ak_[A-Za-z0-9_-]{43}$/

export const hashKey = (key: string): string => createHash("sha256").update(key, "utf8").digest("hex")

export const PartnerRow = Schema.Struct({
  id: Integer,
  name: Text,
  tag: Text,
  email: Text,
  app_url: NullableText,
  description: NullableText,
  revenue_share: Schema.Number,
  created_at: Timestamp,
  key_hash: Text
})
type PartnerRow = typeof PartnerRow.Type

export const PARTNER_COLUMNS = `id, name, tag, email, app_url, description,
  CAST(revenue_share AS DOUBLE PRECISION) AS revenue_share, created_at, key_hash`

const TagRow = Schema.Struct({ tag: Text })

/** A partner named by the operator: its id, or its tag. */
export type PartnerRef = { readonly id: number } | { readonly tag: string }

/** Partner ids are 32-bit integers in both stores. */
const MAX_PARTNER_ID = 2_147_483_647

/**
 * What an operator typed to name a partner: digits that fit a partner id are
 * the id, anything else (longer digit runs included, which no id can be) a tag.
 */
export const partnerRefOf = (text: string): PartnerRef =>
  /^[0-9]{1,10}$/.test(text) && Number(text) <= MAX_PARTNER_ID ? { id: Number(text) } : { tag: text }

const newApiKey = () => `ak_${randomBytes(32).toString("base64url")}`
/** What a revoked key's hash becomes: unique (the column is), and never a sha256 in hex. */
const revokedHash = () => `revoked:${randomBytes(16).toString("hex")}`

// n registrations racing for one name need at most n attempts each.
const MAX_TAG_ATTEMPTS = 20

export const toPartner = (row: PartnerRow): Partner => ({
  id: row.id,
  name: row.name,
  tag: row.tag,
  email: row.email,
  appUrl: row.app_url,
  description: row.description,
  revenueShare: row.revenue_share,
  createdAt: row.created_at
})

export class Partners extends Context.Service<
  Partners,
  {
    register(input: Registration): Effect.Effect<{ partner: Partner; apiKey: string }, DatabaseError>
    /** The partner owning `key`, or undefined (unknown or revoked). `key` must already match API_KEY_PATTERN. */
    authenticate(key: string): Effect.Effect<Partner | undefined, DatabaseError>
    /**
     * Replaces the partner's key `currentKey` by a new one, returned once;
     * undefined when `currentKey` is no longer the partner's (rotated or revoked meanwhile).
     */
    rotate(partnerId: number, currentKey: string): Effect.Effect<string | undefined, DatabaseError>
    /**
     * Revokes the partner's key (operator). With `reissue`, a new key replaces
     * it and is returned once, for the operator to hand over. undefined: no such partner.
     */
    revoke(
      partner: PartnerRef,
      options: { readonly reissue: boolean }
    ): Effect.Effect<{ readonly partner: Partner; readonly apiKey: string | null } | undefined, DatabaseError>
  }
>()("app/partners/Partners") {
  static readonly layer = Layer.effect(
    Partners,
    Effect.gen(function* () {
      const db = yield* Database
      // Authenticated partners, by key hash, each for a few seconds (KeyCache.ts):
      // a key rotated or revoked on another replica stops working here within that.
      const byHash = new KeyCache()

      // The tag is unique in the database: a registration racing another for
      // the same tag (on another replica) inserts nothing and picks the next free one.
      const register = (input: Registration) =>
        db.transaction((tx) =>
          Effect.gen(function* () {
            const base = tagBaseFromName(input.name)
            const apiKey = newApiKey()
            for (let attempt = 1; ; attempt++) {
              const taken = yield* tx.queryAs(TagRow, "SELECT tag FROM partners WHERE tag = $1 OR tag LIKE $2", [
                base,
                `${base}-%`
              ])
              const tag = dedupeTag(base, new Set(taken.map((row) => row.tag)))
              const rows = yield* tx.queryAs(
                PartnerRow,
                `INSERT INTO partners (name, email, app_url, description, tag, key_hash, key_prefix, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, now())
                 ON CONFLICT (tag) DO NOTHING
                 RETURNING ${PARTNER_COLUMNS}`,
                [input.name, input.email, input.appUrl, input.description, tag, hashKey(apiKey), apiKey.slice(0, 7)]
              )
              if (rows.length > 0) return { partner: toPartner(rows[0]), apiKey }
              if (attempt === MAX_TAG_ATTEMPTS)
                return yield* new DatabaseError({
                  message: `no free partner tag after ${attempt} attempts`,
                  cause: tag
                })
            }
          })
        )

      const authenticate = (key: string) =>
        Effect.gen(function* () {
          const hash = hashKey(key)
          const now = yield* Clock.currentTimeMillis
          const cached = byHash.get(hash, now)
          if (cached !== undefined) return cached
          const rows = yield* db.queryAs(PartnerRow, `SELECT ${PARTNER_COLUMNS} FROM partners WHERE key_hash = $1`, [
            hash
          ])
          const row = rows[0]
          if (row === undefined) return undefined
          const same = timingSafeEqual(Buffer.from(row.key_hash, "hex"), Buffer.from(hash, "hex"))
          if (!same) return undefined
          const partner = toPartner(row)
          byHash.set(hash, partner, now)
          return partner
        })

      // Only the key presented moves: of two rotations racing with one key, one
      // wins and the other finds the key gone (undefined, answered 401).
      const rotate = (partnerId: number, currentKey: string) =>
        Effect.gen(function* () {
          const apiKey = newApiKey()
          // Writes go through the writer's transaction (DuckDB: one writer at a time).
          const rows = yield* db.transaction((tx) =>
            tx.queryAs(
              PartnerRow,
              `UPDATE partners SET key_hash = $1, key_prefix = $2
             WHERE id = $3 AND key_hash = $4
             RETURNING ${PARTNER_COLUMNS}`,
              [hashKey(apiKey), apiKey.slice(0, 7), partnerId, hashKey(currentKey)]
            )
          )
          byHash.forgetPartner(partnerId)
          return rows.length > 0 ? apiKey : undefined
        })

      const revoke = (ref: PartnerRef, options: { readonly reissue: boolean }) =>
        Effect.gen(function* () {
          const [where, param] = "id" in ref ? ["id = $1", ref.id] : ["tag = $1", ref.tag]
          const apiKey = options.reissue ? newApiKey() : null
          const rows = yield* db.transaction((tx) =>
            apiKey === null
              ? tx.queryAs(
                  PartnerRow,
                  `UPDATE partners SET key_hash = $2 WHERE ${where} RETURNING ${PARTNER_COLUMNS}`,
                  [param, revokedHash()]
                )
              : tx.queryAs(
                  PartnerRow,
                  `UPDATE partners SET key_hash = $2, key_prefix = $3
                   WHERE ${where} RETURNING ${PARTNER_COLUMNS}`,
                  [param, hashKey(apiKey), apiKey.slice(0, 7)]
                )
          )
          const row = rows[0]
          if (row === undefined) return undefined
          byHash.forgetPartner(row.id)
          return { partner: toPartner(row), apiKey }
        })

      return Partners.of({ register, authenticate, rotate, revoke })
    })
  )
}
