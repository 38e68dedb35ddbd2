import { Clock, Context, Effect, Layer, Schema } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { Text } from "../infra/columns.ts"
import { Database, type DatabaseError } from "../infra/Database.ts"
import { PARTNER_COLUMNS, PartnerRow, hashKey, type Partner, toPartner } from "./Partners.ts"

// Sign-in sessions of the partner dashboard (/partner), kept in the shared
// store rather than in a signed cookie: every replica reads the same rows
// with no secret to share between them, and signing out (or rotating or
// revoking the API key) ends a session on every replica at once. The cookie
// holds a random token; only its hash is stored, as for API keys.

/** How long a dashboard session lasts without signing in again. */
export const SESSION_HOURS = 8

export interface PartnerSession {
  readonly partner: Partner
  /** The token every form of this session must send back (CSRF). */
  readonly csrfToken: string
}

const tokenHash = (token: string) => createHash("sha256").update(token, "utf8").digest("hex")

/** A session cookie's shape: refused before any store read when it has another. */
export const SESSION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

const SessionRow = Schema.Struct({ ...PartnerRow.fields, csrf_token: Text })

export class PartnerSessions extends Context.Service<
  PartnerSessions,
  {
    /** Opens a session for the partner who signed in with `apiKey`; the cookie token, shown once. */
    open(partner: Partner, apiKey: string): Effect.Effect<{ token: string; csrfToken: string }, DatabaseError>
    /** The live session of `token`, or undefined (unknown, expired, signed out, or its key rotated/revoked). */
    find(token: string): Effect.Effect<PartnerSession | undefined, DatabaseError>
    /** Ends the session of `token` (signing out); nothing when there is none. */
    close(token: string): Effect.Effect<void, DatabaseError>
  }
>()("app/partners/PartnerSessions") {
  static readonly layer = Layer.effect(
    PartnerSessions,
    Effect.gen(function* () {
      const db = yield* Database
      const nowIso = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis).toISOString())

      const open = (partner: Partner, apiKey: string) =>
        Effect.gen(function* () {
          const token = randomBytes(32).toString("base64url")
          const csrfToken = randomBytes(32).toString("base64url")
          const now = yield* Clock.currentTimeMillis
          yield* db.transaction((tx) =>
            Effect.gen(function* () {
              // Expired sessions go when a new one opens: no schedule of its own needed.
              yield* tx.run("DELETE FROM partner_sessions WHERE expires_at <= $1::TIMESTAMPTZ", [
                new Date(now).toISOString()
              ])
              yield* tx.run(
                `INSERT INTO partner_sessions (token_hash, partner_id, key_hash, csrf_token, created_at, expires_at)
                 VALUES ($1, $2, $3, $4, $5::TIMESTAMPTZ, $6::TIMESTAMPTZ)`,
                [
                  tokenHash(token),
                  partner.id,
                  hashKey(apiKey),
                  csrfToken,
                  new Date(now).toISOString(),
                  new Date(now + SESSION_HOURS * 3_600_000).toISOString()
                ]
              )
            })
          )
          return { token, csrfToken }
        })

      const find = (token: string) =>
        Effect.gen(function* () {
          if (!SESSION_TOKEN_PATTERN.test(token)) return undefined
          const now = yield* nowIso
          // The join on key_hash: a key rotated or revoked since sign-in ends the session.
          const rows = yield* db.queryAs(
            SessionRow,
            `SELECT ${PARTNER_COLUMNS}, csrf_token FROM (
               SELECT p.*, s.csrf_token FROM partner_sessions s
               JOIN partners p ON p.id = s.partner_id AND p.key_hash = s.key_hash
               WHERE s.token_hash = $1 AND s.expires_at > $2::TIMESTAMPTZ
             ) signed_in`,
            [tokenHash(token), now]
          )
          const row = rows[0]
          return row === undefined ? undefined : { partner: toPartner(row), csrfToken: row.csrf_token }
        })

      const close = (token: string) =>
        SESSION_TOKEN_PATTERN.test(token)
          ? db.run("DELETE FROM partner_sessions WHERE token_hash = $1", [tokenHash(token)])
          : Effect.void

      return PartnerSessions.of({ open, find, close })
    })
  )
}
