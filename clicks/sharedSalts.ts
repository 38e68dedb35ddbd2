import { Clock, Effect, Schema } from "effect"
import { randomBytes } from "node:crypto"
import type { DaySalt } from "../domain/clicks/VisitorHasher.ts"
import { Text } from "../infra/columns.ts"
import type { DatabaseError, DatabaseShape } from "../infra/Database.ts"

// The visitor-hash salts replicas share (PostgreSQL only): today's and
// tomorrow's, so every replica has the next day's salt before its midnight.
// The first replica to ask creates a day's salt (ON CONFLICT DO NOTHING: all
// read back the winner); older days are deleted, so yesterday's hashes cannot
// be recomputed from an IP once the day is over. The price of sharing: while
// a day lasts, whoever can read the database can.
const DAY_MS = 86_400_000
/** How often a replica refreshes them (tomorrow's is known all day, so hours of outage do no harm). */
export const SALT_REFRESH = "1 hour"
const SaltRow = Schema.Struct({ day: Text, salt: Text })

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

export const sharedSalts = (db: DatabaseShape): Effect.Effect<ReadonlyArray<DaySalt>, DatabaseError> =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const today = utcDay(now)
    const fresh = () => randomBytes(32).toString("base64")
    yield* db.run(
      `INSERT INTO click_salts (day, salt) VALUES (CAST($1 AS DATE), $2), (CAST($3 AS DATE), $4)
       ON CONFLICT (day) DO NOTHING`,
      [today, fresh(), utcDay(now + DAY_MS), fresh()]
    )
    yield* db.run("DELETE FROM click_salts WHERE day < CAST($1 AS DATE)", [today])
    return yield* db.queryAs(
      SaltRow,
      "SELECT CAST(day AS VARCHAR) AS day, salt FROM click_salts WHERE day >= CAST($1 AS DATE) ORDER BY day",
      [today]
    )
  })
