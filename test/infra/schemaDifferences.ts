import type { Relation, StoreSchema } from "./schemaCatalogs.ts"

// The comparison of the two stores' schemas, and the one table of which
// column types are the same type spelt twice.

/**
 * DuckDB data_type -> the PostgreSQL format_type() spellings that hold the
 * same values and read back as the same JS value through the seam
 * (infra/postgres/client.ts maps PostgreSQL's values to DuckDB's). A type
 * missing here is a difference: add it once it is read alike on both.
 */
export const TYPE_EQUIVALENTS: Readonly<Record<string, ReadonlyArray<string>>> = {
  VARCHAR: ["text", "character varying"],
  "VARCHAR[]": ["text[]", "character varying[]"],
  BOOLEAN: ["boolean"],
  SMALLINT: ["smallint"],
  INTEGER: ["integer"],
  BIGINT: ["bigint"],
  "BIGINT[]": ["bigint[]"],
  DOUBLE: ["double precision"],
  FLOAT: ["real"],
  DATE: ["date"],
  "TIMESTAMP WITH TIME ZONE": ["timestamp with time zone"],
  TIMESTAMP: ["timestamp without time zone"],
  // The seam hands JSON back as its text on both (json keeps the text as given; jsonb would reorder keys).
  JSON: ["json", "jsonb"],
  BLOB: ["bytea"],
  UUID: ["uuid"]
}

/** DECIMAL(p,s) <-> numeric(p,s), same precision and scale: exact money on both. */
const DECIMAL = /^DECIMAL\((\d+),(\d+)\)$/

export const sameType = (duckDb: string, postgres: string): boolean => {
  const decimal = DECIMAL.exec(duckDb)
  if (decimal !== null) return postgres === `numeric(${decimal[1]},${decimal[2]})`
  return TYPE_EQUIVALENTS[duckDb]?.includes(postgres) ?? false
}

const STORE = { duckdb: "DuckDB", postgres: "PostgreSQL" } as const

const onlyIn = (
  left: ReadonlyArray<string>,
  right: ReadonlyArray<string>,
  describe: (item: string) => string
): Array<string> => [
  ...left.filter((item) => !right.includes(item)).map((item) => `${describe(item)} only in ${STORE.duckdb}`),
  ...right.filter((item) => !left.includes(item)).map((item) => `${describe(item)} only in ${STORE.postgres}`)
]

const compareRelation = (name: string, duckDb: Relation, postgres: Relation): Array<string> => {
  if (duckDb.kind !== postgres.kind) return [`${name}: a ${duckDb.kind} on DuckDB, a ${postgres.kind} on PostgreSQL`]
  const differences: Array<string> = onlyIn(
    duckDb.columns.map((column) => column.name),
    postgres.columns.map((column) => column.name),
    (column) => `column ${name}.${column}`
  )
  for (const column of duckDb.columns) {
    const twin = postgres.columns.find((other) => other.name === column.name)
    if (twin === undefined) continue
    if (!sameType(column.type, twin.type)) {
      differences.push(`column ${name}.${column.name}: ${column.type} on DuckDB, ${twin.type} on PostgreSQL`)
    }
    // A view's columns carry no NOT NULL on PostgreSQL; its tables' columns are compared.
    if (duckDb.kind === "table" && column.notNull !== twin.notNull) {
      differences.push(`column ${name}.${column.name}: NOT NULL only on ${column.notNull ? "DuckDB" : "PostgreSQL"}`)
    }
  }
  const shared = (columns: Relation["columns"], other: Relation["columns"]) =>
    columns.map((column) => column.name).filter((column) => other.some((twin) => twin.name === column))
  const duckDbOrder = shared(duckDb.columns, postgres.columns)
  const postgresOrder = shared(postgres.columns, duckDb.columns)
  if (duckDbOrder.join() !== postgresOrder.join()) {
    differences.push(
      `${name}: column order (${duckDbOrder.join(", ")}) on DuckDB, (${postgresOrder.join(", ")}) on PostgreSQL`
    )
  }
  differences.push(...onlyIn(duckDb.keys, postgres.keys, (key) => `key ${name} ${key}`))
  differences.push(...onlyIn(duckDb.indexes, postgres.indexes, (index) => `index ${name} ${index}`))
  return differences
}

/** Every difference between the two schemas, one line each ("table x only in PostgreSQL", ...). */
export const schemaDifferences = (duckDb: StoreSchema, postgres: StoreSchema): Array<string> => {
  const differences = onlyIn([...duckDb.keys()], [...postgres.keys()], (name) => {
    const relation = duckDb.get(name) ?? postgres.get(name)
    return `${relation?.kind ?? "table"} ${name}`
  })
  for (const [name, relation] of duckDb) {
    const twin = postgres.get(name)
    if (twin !== undefined) differences.push(...compareRelation(name, relation, twin))
  }
  return differences
}

/** A difference both stores are meant to have, and why. */
export interface Allowed {
  readonly difference: string | RegExp
  readonly why: string
}

const matches = (allowed: Allowed, difference: string) =>
  typeof allowed.difference === "string" ? allowed.difference === difference : allowed.difference.test(difference)

/** The differences no allowance explains, and the allowances that explain nothing (stale: remove them). */
export const unexplained = (differences: ReadonlyArray<string>, allowList: ReadonlyArray<Allowed>) => ({
  differences: differences.filter((difference) => !allowList.some((allowed) => matches(allowed, difference))),
  staleAllowances: allowList
    .filter((allowed) => !differences.some((difference) => matches(allowed, difference)))
    .map((allowed) => String(allowed.difference))
})
