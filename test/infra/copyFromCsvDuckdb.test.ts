import { Effect, Exit, Scope } from "effect"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database, type DatabaseShape } from "../../infra/Database.ts"
import { tempDir } from "../support/TestService.ts"

// DuckDB's side of `copyFromCsv` (the seam's bulk load from a CSV file): a
// file DuckDB itself wrote loads back unchanged, NULL and "" kept apart.
// PostgreSQL's side: copyStagedRows.postgres.test.ts.
describe("copyFromCsv on DuckDB", () => {
  const scope = Effect.runSync(Scope.make())
  const files = tempDir("copycsv-")
  let db: DatabaseShape
  const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.runPromise(effect)
  const rows = (table: string) =>
    run(db.query(`SELECT id, note, CAST(price AS VARCHAR) AS price, seen_at FROM ${table} ORDER BY id`))

  beforeAll(async () => {
    db = await run(Database.make(":memory:").pipe(Scope.provide(scope)))
  })
  afterAll(async () => {
    await run(Scope.close(scope, Exit.void))
    files.rm()
  })

  it("loads a CSV DuckDB wrote into the named columns", async () => {
    const table = "(id VARCHAR, note VARCHAR, price DECIMAL(18,4), seen_at TIMESTAMPTZ)"
    await run(db.run(`CREATE TABLE source ${table}`))
    await run(db.run(`CREATE TABLE target ${table}`))
    await run(
      db.run(
        `INSERT INTO source VALUES ('a', 'tab\there, "quoted"', 1.5, '2026-11-24T10:00:00Z'), ('b', '', 0, now()), ('c', NULL, 2, now())`
      )
    )
    const file = join(files.dir, "source.csv")
    await run(db.run(`COPY source TO '${file}' (FORMAT csv, HEADER false)`))
    await run(db.copyFromCsv("target", ["id", "note", "price", "seen_at"], file))
    expect(await rows("target")).toEqual(await rows("source"))
    expect((await rows("target")).map((row) => row.note)).toEqual(['tab\there, "quoted"', "", null])
  })
})
