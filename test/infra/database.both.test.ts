import { ConfigProvider, Effect, Exit, Layer, Option, Redacted, Schema, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Count, IsoTimestamp, NullableText, Numeric, Text } from "../../infra/columns.ts"
import { Database, type DatabaseShape, jsonRowsParam } from "../../infra/Database.ts"
import { makePgDatabase } from "../../infra/PgDatabase.ts"
import { Staging } from "../../infra/Staging.ts"
import { freshDatabaseUrl, testStore } from "../support/postgres.ts"
import { tempDir } from "../support/TestService.ts"

// The storage seam's contract, run on the store of this vitest project:
// DuckDB in the `duckdb` project, PostgreSQL in the `postgres` one.
const store = testStore()

const openPostgres = async (url: string, scope: Scope.Closeable) =>
  Effect.runPromise(makePgDatabase({ url: Redacted.make(url), poolSize: 4 }).pipe(Scope.provide(scope)))

const open = async (scope: Scope.Closeable): Promise<DatabaseShape> =>
  store === "postgres"
    ? openPostgres(await freshDatabaseUrl(), scope)
    : Effect.runPromise(Database.make(":memory:").pipe(Scope.provide(scope)))

const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.runPromise(effect)

// Texts a COPY or an appender could mangle.
const AWKWARD = [
  "tab\there",
  "new\nline and\r\ncrlf",
  "back\\slash \\N \\t",
  `quotes ' " and ,commas;`,
  "unicode: é ß 中文 😀 \u00a0",
  "\\.",
  "",
  " leading and trailing "
]

describe(`storage seam on ${store}`, () => {
  const scope = Effect.runSync(Scope.make())
  let db: DatabaseShape
  const double = () => (db.dialect === "postgres" ? "DOUBLE PRECISION" : "DOUBLE")

  beforeAll(async () => {
    db = await open(scope)
  })
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

  it("names its dialect", () => {
    expect(db.dialect).toBe(store)
  })

  it("runs statements and reads rows with positional parameters", async () => {
    await run(db.run("CREATE TABLE kv (k VARCHAR PRIMARY KEY, v INTEGER, note VARCHAR)"))
    await run(db.run("INSERT INTO kv VALUES ($1, $2, $3), ($4, $5, NULL)", ["a", 1, "x", "b", 2]))
    const raw = await run(db.query<{ k: string; v: number }>("SELECT k, v FROM kv WHERE v >= $1 ORDER BY k", [1]))
    expect(raw.map((row) => [row.k, row.v])).toEqual([
      ["a", 1],
      ["b", 2]
    ])
    const typed = await run(
      db.queryAs(Schema.Struct({ k: Text, note: NullableText }), "SELECT k, note FROM kv ORDER BY k")
    )
    expect(typed).toEqual([
      { k: "a", note: "x" },
      { k: "b", note: null }
    ])
    const mismatch = await Effect.runPromise(
      Effect.flip(db.queryAs(Schema.Struct({ k: Schema.Number }), "SELECT k FROM kv"))
    )
    expect(mismatch.message).toMatch(/row does not match its schema/)
  })

  it("fails a bad statement with a DatabaseError carrying the SQL", async () => {
    const error = await Effect.runPromise(Effect.flip(db.query("SELECT * FROM no_such_table")))
    expect(error._tag).toBe("DatabaseError")
    expect(error.message).toContain("no_such_table")
  })

  it("commits a transaction, and rolls back one that fails", async () => {
    await run(db.run("CREATE TABLE ledger (id INTEGER, amount DECIMAL(18,4))"))
    await run(
      db.transaction((tx) =>
        Effect.gen(function* () {
          yield* tx.run("INSERT INTO ledger VALUES (1, $1::DECIMAL(18,4))", ["10.5"])
          yield* tx.run("INSERT INTO ledger VALUES (2, $1::DECIMAL(18,4))", ["0.0001"])
        })
      )
    )
    const failed = await Effect.runPromiseExit(
      db.transaction((tx) =>
        Effect.gen(function* () {
          yield* tx.run("INSERT INTO ledger VALUES (3, 1)")
          return yield* Effect.fail("stop")
        })
      )
    )
    expect(Exit.isFailure(failed)).toBe(true)
    const broken = await Effect.runPromiseExit(
      db.transaction((tx) =>
        Effect.gen(function* () {
          yield* tx.run("INSERT INTO ledger VALUES (4, 1)")
          yield* tx.run("INSERT INTO ledger VALUES ('not a number', 1)")
        })
      )
    )
    expect(Exit.isFailure(broken)).toBe(true)
    const rows = await run(
      db.queryAs(Schema.Struct({ id: Count, amount: Numeric }), "SELECT id, amount FROM ledger ORDER BY id")
    )
    expect(rows).toEqual([
      { id: 1, amount: 10.5 },
      { id: 2, amount: 0.0001 }
    ])
  })

  it("keeps readers on the committed snapshot while a transaction writes", async () => {
    await run(db.run("CREATE TABLE snap (id INTEGER)"))
    await run(db.run("INSERT INTO snap VALUES (1)"))
    const count = Effect.map(
      db.queryAs(Schema.Struct({ n: Count }), "SELECT count(*) AS n FROM snap"),
      (rows) => rows[0].n
    )
    const during = await run(
      db.transaction((tx) =>
        Effect.gen(function* () {
          yield* tx.run("DELETE FROM snap")
          yield* tx.run("INSERT INTO snap VALUES (2), (3)")
          const inside = yield* Effect.map(
            tx.queryAs(Schema.Struct({ n: Count }), "SELECT count(*) AS n FROM snap"),
            (rows) => rows[0].n
          )
          return { inside, outside: yield* count }
        })
      )
    )
    expect(during).toEqual({ inside: 2, outside: 1 })
    expect(await run(count)).toBe(2)
  })

  it("appends awkward values and reads them back unchanged", async () => {
    await run(
      db.run(
        `CREATE TABLE awkward (i INTEGER, s VARCHAR, b BIGINT, d ${double()}, f BOOLEAN, t TIMESTAMPTZ, m DECIMAL(18,4))`
      )
    )
    const at = "2026-03-29T01:30:00.123Z"
    await run(
      db.append("awkward", (appender) => {
        AWKWARD.forEach((text, i) => {
          appender.appendInteger(i)
          appender.appendVarchar(text)
          appender.appendBigInt(9_007_199_254_740_993n)
          appender.appendDouble(-0.125)
          appender.appendBoolean(i % 2 === 0)
          appender.appendVarchar(at)
          appender.appendVarchar("-12345678901234.5678")
          appender.endRow()
        })
        appender.appendInteger(AWKWARD.length)
        for (let column = 0; column < 6; column++) appender.appendNull()
        appender.endRow()
      })
    )
    const rows = await run(db.query<Record<string, unknown>>("SELECT * FROM awkward ORDER BY i"))
    expect(rows.map((row) => row.s)).toEqual([...AWKWARD, null])
    expect(rows[0]).toEqual({
      i: 0,
      s: AWKWARD[0],
      b: 9_007_199_254_740_993n,
      d: -0.125,
      f: true,
      t: new Date(at),
      m: -12345678901234.568
    })
    expect(rows[AWKWARD.length]).toEqual({ i: AWKWARD.length, s: null, b: null, d: null, f: null, t: null, m: null })
    const exact = await run(
      db.queryAs(Schema.Struct({ m: Text }), "SELECT CAST(m AS VARCHAR) AS m FROM awkward WHERE i = 0")
    )
    expect(exact[0].m).toBe("-12345678901234.5678")
  })

  it("appends into a TEMP table of the transaction's connection", async () => {
    await run(db.run("CREATE TABLE kept (s VARCHAR)"))
    await run(
      db.transaction((tx) =>
        Effect.gen(function* () {
          yield* tx.run("CREATE TEMP TABLE staged (s VARCHAR)")
          yield* tx.append(
            "staged",
            (appender) => {
              for (const text of AWKWARD) {
                appender.appendVarchar(text)
                appender.endRow()
              }
            },
            { temp: true }
          )
          yield* tx.run("INSERT INTO kept SELECT s FROM staged")
          yield* tx.run("DROP TABLE staged")
        })
      )
    )
    const rows = await run(db.queryAs(Schema.Struct({ s: Text }), "SELECT s FROM kept"))
    expect(rows.map((row) => row.s).sort()).toEqual([...AWKWARD].sort())
  })

  it("an appender row left open fails the append and writes nothing", async () => {
    await run(db.run("CREATE TABLE half (a VARCHAR, b VARCHAR)"))
    const exit = await Effect.runPromiseExit(
      db.transaction((tx) =>
        tx.append("half", (appender) => {
          appender.appendVarchar("x")
          appender.appendVarchar("y")
          appender.endRow()
          appender.appendVarchar("only one column")
        })
      )
    )
    expect(Exit.isFailure(exit)).toBe(true)
    const rows = await run(db.query("SELECT * FROM half"))
    expect(rows).toEqual([])
  })

  it("reads a JSON batch as a table (jsonRows) and a JSON list (jsonList)", async () => {
    const batch = [
      { i: 1, s: AWKWARD[0], b: 5, f: true, d: 1.25, on: "reserved word" },
      { i: 2, s: AWKWARD[4], b: null, f: false, d: null, on: null }
    ]
    const columns = { i: "INTEGER", s: "VARCHAR", b: "BIGINT", f: "BOOLEAN", d: "DOUBLE", on: "VARCHAR" } as const
    const rows = await run(
      db.query<Record<string, unknown>>(
        `SELECT r.i, r.s, r.b, r.f, r.d, r."on" FROM ${db.jsonRows("$1", columns)} r ORDER BY r.i`,
        [jsonRowsParam(batch)]
      )
    )
    expect(rows).toEqual([
      { ...batch[0], b: 5n },
      { ...batch[1], b: null }
    ])
    await run(db.run("CREATE TABLE listed (s VARCHAR)"))
    await run(db.run("INSERT INTO listed VALUES ($1), ($2), ($3)", [AWKWARD[1], AWKWARD[2], "other"]))
    const hits = await run(
      db.queryAs(Schema.Struct({ s: Text }), `SELECT s FROM listed WHERE s IN ${db.jsonList("$1")} ORDER BY s`, [
        JSON.stringify([AWKWARD[2], AWKWARD[1], "absent"])
      ])
    )
    expect(hits.map((row) => row.s)).toEqual([AWKWARD[2], AWKWARD[1]].sort())
  })

  it("writes a batch through jsonRows inside a transaction", async () => {
    await run(db.run("CREATE TABLE events (id VARCHAR, seen TIMESTAMPTZ, amount DECIMAL(18,4))"))
    const batch = [
      { id: "e1", seen: "2026-01-01T00:00:00.000Z", amount: "1.2345" },
      { id: "e2", seen: "2026-06-30T23:59:59.999Z", amount: "-0.0001" }
    ]
    await run(
      db.transaction((tx) =>
        tx.run(
          `INSERT INTO events SELECT id, CAST(seen AS TIMESTAMPTZ), CAST(amount AS DECIMAL(18,4))
           FROM ${tx.jsonRows("$1", { id: "VARCHAR", seen: "VARCHAR", amount: "VARCHAR" })}`,
          [jsonRowsParam(batch)]
        )
      )
    )
    const rows = await run(
      db.queryAs(
        Schema.Struct({ id: Text, seen: IsoTimestamp, amount: Text }),
        "SELECT id, seen, CAST(amount AS VARCHAR) AS amount FROM events ORDER BY id"
      )
    )
    expect(rows).toEqual(batch)
  })
})

describe(`Staging on ${store}`, () => {
  it("is the Database itself on DuckDB and its own DuckDB file with DATABASE_URL", async () => {
    const temp = tempDir("staging-")
    try {
      const databaseUrl = store === "postgres" ? Option.some(Redacted.make(await freshDatabaseUrl())) : Option.none()
      const layer = Staging.layer.pipe(
        Layer.provideMerge(Database.layer),
        Layer.provide(AppConfig.layerWith({ dataDir: temp.dir, databaseUrl }))
      )
      const { database, staging } = await Effect.runPromise(
        Effect.gen(function* () {
          return { database: yield* Database, staging: yield* Staging }
        }).pipe(Effect.provide(layer), Effect.scoped)
      )
      expect(staging.dialect).toBe("duckdb")
      expect(database.dialect).toBe(store)
      if (store === "duckdb") expect(staging).toBe(database)
      else expect(staging.path).toBe(`${temp.dir}/staging.duckdb`)
    } finally {
      temp.rm()
    }
  })

  it("is typed DuckDB: what only DuckDB does compiles on Staging, not on the Database", async () => {
    expectTypeOf<Staging["Service"]["dialect"]>().toEqualTypeOf<"duckdb">()
    // Never run: the two calls are the compile-time check (npm run typecheck fails if either compiles).
    const onTheSharedStore = (database: Database["Service"]) => [
      // @ts-expect-error named parameters are DuckDB's alone
      database.query("SELECT $feed AS feed", { feed: "x" }),
      // @ts-expect-error appending into an attached database is DuckDB's alone
      database.append("t", () => undefined, { database: "work" })
    ]
    expectTypeOf(onTheSharedStore).returns.toBeArray()
    const rows = await Effect.runPromise(
      Effect.gen(function* () {
        const staging = yield* Staging
        return yield* staging.query("SELECT $feed AS feed", { feed: "x" })
      }).pipe(
        Effect.provide(
          Staging.layer.pipe(
            Layer.provideMerge(Database.layerMemory),
            Layer.provide(AppConfig.layerWith({ dataDir: "unused" }))
          )
        ),
        Effect.scoped
      )
    )
    expect(rows).toEqual([{ feed: "x" }])
  })
})

describe("DATABASE_URL", () => {
  const read = (env: Record<string, string>) =>
    Effect.runPromiseExit(AppConfig.fromEnv.pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env })))))

  it("is optional, and a postgres:// or postgresql:// URL when set", async () => {
    const unset = await read({})
    expect(Exit.isSuccess(unset) && Option.isNone(unset.value.databaseUrl)).toBe(true)
    for (const url of ["postgres://u:p@db:5432/app", "postgresql://db/app"]) {
      const exit = await read({ DATABASE_URL: url, DATABASE_POOL_SIZE: "3" })
      expect(Exit.isSuccess(exit)).toBe(true)
      if (Exit.isSuccess(exit)) {
        expect(Option.map(exit.value.databaseUrl, Redacted.value)).toEqual(Option.some(url))
        expect(exit.value.databasePoolSize).toBe(3)
      }
    }
  })

  it("refuses another scheme at start-up, naming the variable", async () => {
    const exit = await read({ DATABASE_URL: "mysql://db/app" })
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(Exit.isFailure(exit) ? exit.cause : "")).toMatch(
      /DATABASE_URL must start with postgres:\/\/ or postgresql:\/\//
    )
  })
})
