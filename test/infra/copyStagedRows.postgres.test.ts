import { Effect, Exit, Redacted, Scope } from "effect"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database, type DatabaseShape } from "../../infra/Database.ts"
import { makePgDatabase } from "../../infra/PgDatabase.ts"
import { copyStagedRows } from "../../pipelines/publish/copyStagedRows.ts"
import { freshDatabaseUrl } from "../support/postgres.ts"
import { tempDir } from "../support/TestService.ts"

// The staged-row copy (the publish path from DuckDB staging into PostgreSQL,
// over `copyFromCsv`): awkward values arrive intact, and a COPY PostgreSQL
// refuses fails with its own message and leaves the transaction's work undone.

const AWKWARD = [
  "tab\there",
  "new\nline and\r\ncrlf",
  "back\\slash \\N \\t",
  `quotes ' " and ,commas;`,
  "unicode: é ß 中文 😀",
  "\\.",
  "",
  " padded "
]

const TABLE = `CREATE TABLE items (
  id VARCHAR NOT NULL,
  note VARCHAR,
  tags VARCHAR[] NOT NULL,
  price DECIMAL(18,4) NOT NULL,
  seen_at TIMESTAMPTZ NOT NULL,
  ok BOOLEAN NOT NULL,
  n INTEGER
)`

describe("copying staged rows into PostgreSQL", () => {
  const scope = Effect.runSync(Scope.make())
  const files = tempDir("copycsv-")
  let staging: DatabaseShape
  let target: DatabaseShape
  const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.runPromise(effect)
  const rowsOf = (db: DatabaseShape) =>
    run(
      db.query<Record<string, unknown>>(
        `SELECT id, note, tags, CAST(price AS VARCHAR) AS price, seen_at, ok, n FROM items ORDER BY id`
      )
    )

  beforeAll(async () => {
    staging = await run(Database.make(":memory:").pipe(Scope.provide(scope)))
    target = await run(
      makePgDatabase({ url: Redacted.make(await freshDatabaseUrl()), poolSize: 2 }).pipe(Scope.provide(scope))
    )
    await run(staging.run(TABLE))
    // A rule only the target knows: staging accepts the row, the target's COPY does not.
    await run(target.run(TABLE.replace("n INTEGER", "n INTEGER, CONSTRAINT no_poison CHECK (id <> 'poison')")))
  })
  afterAll(async () => {
    await run(Scope.close(scope, Exit.void))
    files.rm()
  })

  it("copies awkward texts, lists, decimals, timestamps, booleans and NULLs intact, uncommitted staged rows included", async () => {
    await run(
      staging.transaction((staged) =>
        Effect.gen(function* () {
          let i = 0
          for (const text of AWKWARD) {
            yield* staged.run(
              `INSERT INTO items VALUES ($1, $2, [$2, 'plain'], 12.3456, '2026-11-24T10:00:00.123Z', $3, $4)`,
              [`a${i}`, text, i % 2 === 0, i === 3 ? null : i]
            )
            i++
          }
          yield* staged.run(`INSERT INTO items VALUES ('n', NULL, [], 0, '2026-01-01T00:00:00Z', false, NULL)`)
          yield* staged.run(`INSERT INTO items VALUES ('z', 'x', ['a', NULL], 1, now(), true, 1)`)
          yield* target.transaction((tx) =>
            copyStagedRows(staged, tx, "items", "id <> $1", ["skipped"], join(files.dir, "csv"))
          )
        })
      )
    )
    // A NULL list element is checked in SQL: postgres.js reads it back as the text "NULL".
    expect(await run(target.query("SELECT tags[2] IS NULL AS missing FROM items WHERE id = 'z'"))).toEqual([
      { missing: true }
    ])
    await run(
      Effect.all([staging.run("DELETE FROM items WHERE id = 'z'"), target.run("DELETE FROM items WHERE id = 'z'")])
    )
    const copied = await rowsOf(target)
    expect(copied).toHaveLength(AWKWARD.length + 1)
    expect(copied).toEqual(await rowsOf(staging))
    expect(copied[0]).toMatchObject({ note: AWKWARD[0], tags: [AWKWARD[0], "plain"], price: "12.3456", ok: true })
    expect(copied.at(-1)).toMatchObject({ id: "n", note: null, tags: [], n: null })
  })

  it("a COPY PostgreSQL refuses fails with its message, rolls back, and leaves the connection usable", async () => {
    await run(staging.run("INSERT INTO items VALUES ('poison', NULL, [], 1, now(), true, 1)"))
    const before = (await rowsOf(target)).length
    const exit = await Effect.runPromiseExit(
      target.transaction((tx) =>
        Effect.gen(function* () {
          yield* tx.run("DELETE FROM items")
          yield* copyStagedRows(staging, tx, "items", "true", [], join(files.dir, "csv"))
        })
      )
    )
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(Exit.isFailure(exit) ? exit.cause : "")).toMatch(/no_poison/)
    expect(await rowsOf(target)).toHaveLength(before)
    await run(
      target.transaction((tx) =>
        tx.run("INSERT INTO items (id, tags, price, seen_at, ok) VALUES ('after', '{}', 1, now(), true)")
      )
    )
    expect((await rowsOf(target)).map((row) => row.id)).toContain("after")
  })
})
