import { Effect } from "effect"
import type { Tx } from "../../infra/Database.ts"
import type { Sql } from "../../infra/postgres/client.ts"

// Each store's schema as its own catalog describes it after migration (never
// by parsing our SQL files): DuckDB's duckdb_tables()/duckdb_views()/
// duckdb_columns()/duckdb_constraints()/duckdb_indexes(), PostgreSQL's
// pg_catalog. Names are compared, not positions, except for the column order
// itself: `append` (DuckDB's Appender, PostgreSQL's COPY without a column
// list) fills columns in table order, so the order is part of the contract.

export interface Column {
  readonly name: string
  /** The store's own spelling: DuckDB's data_type, PostgreSQL's format_type(). */
  readonly type: string
  readonly notNull: boolean
}

export interface Relation {
  readonly kind: "table" | "view"
  /** In table order. */
  readonly columns: ReadonlyArray<Column>
  /** "PRIMARY KEY (a)", "UNIQUE (a, b)": constraints and unique indexes alike, by their key columns. */
  readonly keys: ReadonlyArray<string>
  /** Non-unique indexes by their key columns (and predicate): "(a, b)", "(a) WHERE a IS NOT NULL". */
  readonly indexes: ReadonlyArray<string>
}

/** Relation name -> relation, user objects of the default schema only. */
export type StoreSchema = ReadonlyMap<string, Relation>

/**
 * One index key column or expression, spelt alike on both stores: lower case,
 * no spaces, no outer parentheses (DuckDB wraps expressions, PostgreSQL does
 * not), string literals as written (DuckDB escapes their quotes inside its
 * quoted expression, PostgreSQL casts them: `''::text`).
 */
export const normalizeKeyPart = (part: string): string => {
  let text = part
    .trim()
    .replace(/^'(.*)'$/s, "$1")
    .replaceAll("\\'", "'")
    .replaceAll("'::text", "'")
    .toLowerCase()
    .replace(/\s+/g, "")
  while (text.startsWith("(") && text.endsWith(")") && balanced(text.slice(1, -1))) text = text.slice(1, -1)
  return text.replace(/^"(.*)"$/, "$1")
}

const balanced = (text: string): boolean => {
  let depth = 0
  for (const char of text) {
    depth += char === "(" ? 1 : char === ")" ? -1 : 0
    if (depth < 0) return false
  }
  return depth === 0
}

/** DuckDB lists an index's expressions as one text, "[a, '(COALESCE(b, 0))', c]": split at top-level commas. */
export const splitDuckDbExpressions = (list: string): Array<string> => {
  const inner = list.trim().replace(/^\[/, "").replace(/\]$/, "")
  const parts: Array<string> = []
  let depth = 0
  let quoted = false
  let current = ""
  for (const char of inner) {
    if (char === "'") quoted = !quoted
    if (!quoted && char === "(") depth++
    if (!quoted && char === ")") depth--
    if (!quoted && depth === 0 && char === ",") {
      parts.push(current)
      current = ""
    } else current += char
  }
  if (current.trim() !== "") parts.push(current)
  return parts
}

const keyText = (columns: ReadonlyArray<string>, predicate?: string | null) =>
  `(${columns.map(normalizeKeyPart).join(", ")})${predicate ? ` WHERE ${predicate.toLowerCase()}` : ""}`

interface Draft {
  kind: "table" | "view"
  columns: Array<Column>
  keys: Array<string>
  indexes: Array<string>
}

const relationOf = (relations: Map<string, Draft>, name: string) => {
  const relation = relations.get(name)
  if (relation === undefined) throw new Error(`catalog row for unknown relation ${name}`)
  return relation
}

const sorted = (relations: Map<string, Draft>): StoreSchema =>
  new Map(
    [...relations].map(([name, draft]) => [
      name,
      { kind: draft.kind, columns: draft.columns, keys: draft.keys.toSorted(), indexes: draft.indexes.toSorted() }
    ])
  )

// The database's own main schema: not the system views, not the temp database's objects.
const MAIN = "database_name = current_database() AND schema_name = 'main'"

/** The schema of a DuckDB database's `main` schema. */
export const readDuckDbSchema = (db: Pick<Tx, "query">) =>
  Effect.gen(function* () {
    const relations = new Map<string, Draft>()
    const tables = yield* db.query<{ name: string }>(
      `SELECT table_name AS name FROM duckdb_tables() WHERE ${MAIN} AND NOT internal`
    )
    const views = yield* db.query<{ name: string }>(
      `SELECT view_name AS name FROM duckdb_views() WHERE ${MAIN} AND NOT internal`
    )
    for (const { name } of tables) relations.set(name, { kind: "table", columns: [], keys: [], indexes: [] })
    for (const { name } of views) relations.set(name, { kind: "view", columns: [], keys: [], indexes: [] })
    const columns = yield* db.query<{ relation: string; name: string; type: string; nullable: boolean }>(
      `SELECT table_name AS relation, column_name AS name, data_type AS type, is_nullable AS nullable
       FROM duckdb_columns() WHERE ${MAIN} AND NOT internal
       ORDER BY table_name, column_index`
    )
    for (const column of columns) {
      if (!relations.has(column.relation)) continue
      relationOf(relations, column.relation).columns.push({
        name: column.name,
        type: column.type,
        notNull: !column.nullable
      })
    }
    const constraints = yield* db.query<{ relation: string; type: string; columns: Array<string> }>(
      `SELECT table_name AS relation, constraint_type AS type, constraint_column_names AS columns
       FROM duckdb_constraints() WHERE ${MAIN} AND constraint_type IN ('PRIMARY KEY', 'UNIQUE')`
    )
    for (const constraint of constraints) {
      relationOf(relations, constraint.relation).keys.push(`${constraint.type} ${keyText(constraint.columns)}`)
    }
    const indexes = yield* db.query<{ relation: string; unique: boolean; expressions: string }>(
      `SELECT table_name AS relation, is_unique AS unique, expressions
       FROM duckdb_indexes() WHERE ${MAIN}`
    )
    for (const index of indexes) {
      const key = keyText(splitDuckDbExpressions(index.expressions))
      const relation = relationOf(relations, index.relation)
      if (index.unique) relation.keys.push(`UNIQUE ${key}`)
      else relation.indexes.push(key)
    }
    return sorted(relations)
  })

/** The schema of a PostgreSQL database's `public` schema (indexes backing a key are read as the key). */
export const readPostgresSchema = async (sql: Sql): Promise<StoreSchema> => {
  const relations = new Map<string, Draft>()
  const classes = await sql.unsafe<Array<{ name: string; kind: string }>>(
    `SELECT c.relname AS name, c.relkind AS kind FROM pg_class c
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v')`
  )
  for (const { name, kind } of classes) {
    relations.set(name, { kind: kind === "v" ? "view" : "table", columns: [], keys: [], indexes: [] })
  }
  const columns = await sql.unsafe<Array<{ relation: string; name: string; type: string; not_null: boolean }>>(
    `SELECT c.relname AS relation, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
            a.attnotnull AS not_null
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v')
       AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY c.relname, a.attnum`
  )
  for (const column of columns) {
    relationOf(relations, column.relation).columns.push({
      name: column.name,
      type: column.type,
      notNull: column.not_null
    })
  }
  const constraints = await sql.unsafe<Array<{ relation: string; type: string; columns: Array<string> }>>(
    `SELECT c.relname AS relation, CASE con.contype WHEN 'p' THEN 'PRIMARY KEY' ELSE 'UNIQUE' END AS type,
            ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, position)
                  JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
                  ORDER BY k.position) AS columns
     FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid
     WHERE c.relnamespace = 'public'::regnamespace AND con.contype IN ('p', 'u')`
  )
  for (const constraint of constraints) {
    relationOf(relations, constraint.relation).keys.push(`${constraint.type} ${keyText(constraint.columns)}`)
  }
  const indexes = await sql.unsafe<
    Array<{ relation: string; unique: boolean; columns: Array<string>; predicate: string | null }>
  >(
    `SELECT t.relname AS relation, i.indisunique AS unique,
            ARRAY(SELECT pg_get_indexdef(i.indexrelid, k, true) FROM generate_series(1, i.indnkeyatts) AS k
                  ORDER BY k) AS columns,
            pg_get_expr(i.indpred, i.indrelid, true) AS predicate
     FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
     WHERE t.relnamespace = 'public'::regnamespace
       AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = i.indexrelid AND con.contype IN ('p', 'u'))`
  )
  for (const index of indexes) {
    if (!relations.has(index.relation)) continue
    const key = keyText(index.columns, index.predicate)
    const relation = relationOf(relations, index.relation)
    if (index.unique) relation.keys.push(`UNIQUE ${key}`)
    else relation.indexes.push(key)
  }
  return sorted(relations)
}
