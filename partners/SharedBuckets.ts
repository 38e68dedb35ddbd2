import { Effect, Schema } from "effect"
import { Bool, Numeric } from "../infra/columns.ts"
import type { Database, DatabaseError } from "../infra/Database.ts"
import { jsonRowsParam } from "../infra/Store.ts"
import type { RateLimit, Verdict } from "./RateLimiter.ts"

// The token buckets of RateLimiter.ts, kept in PostgreSQL so that N API
// replicas enforce ONE limit per key or IP, not N times it. One statement
// per request: the upsert refills the bucket from the time elapsed (the
// database's clock, the same for every replica), takes a token when there is
// one, and says whether it did; concurrent requests on one bucket queue on
// its row lock. The table is UNLOGGED (no WAL per request; emptied by a
// server crash, which only forgives recent use). `full_at` is when the bucket
// is full again, after which the row carries no information and is pruned.
//
// A bucket's time never runs backwards. `now()` is when the statement's
// transaction started, before it queued on the row lock, so a request that
// started first can be applied after one that started later: its elapsed
// time `now() - at` is then negative. Counted as such it took a sliver of a
// token (a burst of 4 concurrent requests left 0.999 for the last: 429), so
// elapsed time is at least zero and `at` only moves forward.

const Taken = Schema.Struct({ allowed: Bool, tokens: Numeric })

const refill = "LEAST($2::float8, b.tokens + extract(epoch FROM GREATEST(now() - b.at, interval '0')) * $3::float8)"
const left = `${refill} - CASE WHEN ${refill} >= 1 THEN 1 ELSE 0 END`

// A limit without refill (perMinute 0) is never full again once a token is
// taken: 'infinity', or the pruner would hand the bucket back full.
const fullAt = (missing: string, at = "now()") =>
  `CASE WHEN $3::float8 > 0 THEN ${at} + make_interval(secs => (${missing}) / $3::float8) ELSE 'infinity' END`

const TAKE_SQL = `INSERT INTO rate_limit_buckets AS b (key, tokens, at, allowed, full_at)
  VALUES ($1, CASE WHEN $2::float8 >= 1 THEN $2::float8 - 1 ELSE $2::float8 END, now(), $2::float8 >= 1,
          ${fullAt("CASE WHEN $2::float8 >= 1 THEN 1 ELSE 0 END")})
  ON CONFLICT (key) DO UPDATE SET
    tokens = ${left},
    allowed = ${refill} >= 1,
    at = GREATEST(b.at, now()),
    full_at = ${fullAt(`$2::float8 - (${left})`, "GREATEST(b.at, now())")}
  RETURNING allowed, tokens`

/** Takes one token from the shared bucket `key` (PostgreSQL only). */
export const takeShared = (
  db: Pick<Database["Service"], "queryAs">,
  limit: RateLimit,
  key: string
): Effect.Effect<Verdict, DatabaseError> =>
  Effect.map(db.queryAs(Taken, TAKE_SQL, [key, limit.burst, limit.perMinute / 60]), ([row]): Verdict => {
    if (row === undefined || row.allowed) return { allowed: true }
    const perSecond = limit.perMinute / 60
    const wait = perSecond > 0 ? (1 - row.tokens) / perSecond : 60
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(wait)) }
  })

// What replicas granted from memory (SyncedBuckets.ts), charged to the shared
// rows in one statement per limit: each row is refilled as above, then
// `taken` is subtracted whether or not the bucket held it. A level below zero
// is a debt: more was granted across replicas than the bucket held, and it is
// repaid by refill before anyone grants again, so over time a client gets no
// more than the limit. Rows are written in key order, so two replicas' syncs
// of overlapping keys queue on each other's row locks instead of deadlocking.
const spendSql = (grants: string) => `INSERT INTO rate_limit_buckets AS b (key, tokens, at, allowed, full_at)
  SELECT d.key, $2::float8 - d.taken, now(), true, ${fullAt("d.taken")}
  FROM ${grants} AS d
  ORDER BY d.key
  ON CONFLICT (key) DO UPDATE SET
    tokens = ${refill} - ($2::float8 - excluded.tokens),
    allowed = true,
    at = GREATEST(b.at, now()),
    full_at = ${fullAt(`$2::float8 - (${refill} - ($2::float8 - excluded.tokens))`, "GREATEST(b.at, now())")}
  RETURNING key, tokens`

const Level = Schema.Struct({ key: Schema.String, tokens: Numeric })

/**
 * Charges `taken` tokens to each shared bucket `key` of `limit` (PostgreSQL
 * only); returns each bucket's level afterwards, which may be below zero.
 */
export const spendShared = (
  db: Pick<Database["Service"], "queryAs" | "jsonRows">,
  limit: RateLimit,
  taken: ReadonlyMap<string, number>
): Effect.Effect<ReadonlyArray<{ readonly key: string; readonly tokens: number }>, DatabaseError> =>
  db.queryAs(Level, spendSql(db.jsonRows("$1", { key: "VARCHAR", taken: "DOUBLE" })), [
    jsonRowsParam(Array.from(taken, ([key, count]) => ({ key, taken: count }))),
    limit.burst,
    limit.perMinute / 60
  ])

/** Forgets buckets that are full again (they would start full anyway). */
export const pruneSharedBuckets = (db: Database["Service"]) =>
  db.run("DELETE FROM rate_limit_buckets WHERE full_at < now()")
