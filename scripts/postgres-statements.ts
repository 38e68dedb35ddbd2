// Which test files the postgres project needs: from a statement log of a run
// of it (TEST_PG_STATEMENT_LOG, docs/testing.md), every distinct statement the
// service sent to PostgreSQL, which file sent it, and the fewest `*.both`
// files that still send every one of them beside the `*.postgres` files.
//
//   TEST_PG_STATEMENT_LOG=/tmp/pg.log npx vitest run --project postgres
//   node scripts/postgres-statements.ts /tmp/pg.log [--why | --list]
//
// --why: the statements each needed file is kept for; --list: every
// statement, one a line (diff two runs' lists to see what a change lost).
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"

const ROOT = join(import.meta.dirname, "..")
const [logFile, flag] = process.argv.slice(2)
if (logFile === undefined) {
  console.error("usage: node scripts/postgres-statements.ts LOG [--why | --list]")
  process.exit(2)
}

/** One statement whatever its values: literals, parameters and repeated rows or lists become placeholders. */
const shape = (sql: string) =>
  sql
    .replace(/\s+/g, " ")
    .replace(/'(?:[^']|'')*'/g, "?")
    .replace(/\bt_[0-9a-f]{16}\b/g, "t_?")
    .replace(/_[0-9a-f]{6,}\b/g, "_?")
    .replace(/\$\d+/g, "$")
    .replace(/\b\d+(\.\d+)?\b/g, "?")
    .replace(/\(\s*\$(\s*,\s*\$)*\s*\)/g, "($*)")
    .replace(/\(\$\*\)(\s*,\s*\(\$\*\))+/g, "($*)")
    .replace(/([$?])(\s*,\s*[$?])+/g, "$1*")
    .trim()

// Statements a test sends itself (its assertions, its seeding) are not the
// service's: a statement belongs to whichever side's source holds the
// longest piece of its text (string and template literals, split at ${}).
const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith(".") || entry.name === "node_modules" || entry.name === "data") return []
    const path = join(dir, entry.name)
    return entry.isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : []
  })
const literalPieces = (files: ReadonlyArray<string>) => {
  const pieces = new Set<string>()
  for (const file of files) {
    for (const match of readFileSync(file, "utf8").matchAll(/`((?:[^`\\]|\\.)*)`|"((?:[^"\\]|\\.)*)"/g)) {
      for (const piece of (match[1] ?? match[2]).split(/\$\{(?:[^{}]|\{[^{}]*\})*\}/)) {
        const text = piece.replace(/\s+/g, " ").trim()
        if (text.length >= 16) pieces.add(text)
      }
    }
  }
  return [...pieces]
}
const longestIn = (text: string, pieces: ReadonlyArray<string>) =>
  pieces.reduce((longest, piece) => (piece.length > longest && text.includes(piece) ? piece.length : longest), 0)
const files = sourceFiles(ROOT).map((file) => relative(ROOT, file))
const inTests = (file: string) => file.startsWith("test/") || file.startsWith("bench/")
const servicePieces = literalPieces(files.filter((file) => !inTests(file)).map((file) => join(ROOT, file)))
const testPieces = literalPieces(files.filter(inTests).map((file) => join(ROOT, file)))
const fromService = (text: string) => longestIn(text, servicePieces) >= longestIn(text, testPieces)

// The log: `database|LOG:  execute <name>: SQL` (continued on following
// lines), and `database|ERROR:  ...` for statements PostgreSQL refused, which
// count too (the service's handling of a refusal is PostgreSQL-only code).
const fileOf = new Map<string, string>()
for (const line of readFileSync(`${logFile}.databases`, "utf8").split("\n")) {
  const [database, file] = line.split("\t")
  if (database && file) fileOf.set(database, relative(ROOT, file))
}
/** A logged statement's shape, unless the test sent it itself. */
const serviceStatement = (text: string) => {
  const statement = /^(?:execute [^:]*|statement): ([\s\S]*)$/.exec(text)?.[1]
  return statement !== undefined && fromService(statement.replace(/\s+/g, " ")) ? shape(statement) : undefined
}
const sent = new Map<string, Set<string>>()
const record = (database: string, kind: string, text: string) => {
  const file = fileOf.get(database)
  const item = kind === "ERROR" ? `refused: ${shape(text)}` : kind === "LOG" ? serviceStatement(text) : undefined
  if (file === undefined || item === undefined) return
  const items = sent.get(file) ?? new Set<string>()
  items.add(item)
  sent.set(file, items)
}
let entry: { database: string; kind: string; text: string } | undefined
for (const line of readFileSync(logFile, "utf8").split("\n")) {
  const head = /^([a-z0-9_]*)\|([A-Z]+):  (.*)$/.exec(line)
  if (head === null) {
    if (entry !== undefined) entry.text += `\n${line}`
    continue
  }
  if (entry !== undefined) record(entry.database, entry.kind, entry.text)
  entry = { database: head[1], kind: head[2], text: head[3] }
}
if (entry !== undefined) record(entry.database, entry.kind, entry.text)

if (flag === "--list") {
  for (const item of [...new Set([...sent.values()].flatMap((items) => [...items]))].sort()) console.log(item)
  process.exit(0)
}

// Greedy cover: the *.postgres files run anyway; then, while a statement is
// sent by no file kept, keep the `*.both` file that sends most of them.
const covered = new Set<string>()
for (const [file, items] of sent) if (!file.includes(".both.")) for (const item of items) covered.add(item)
const candidates = [...new Set(fileOf.values())].filter((file) => file.includes(".both."))
const kept: Array<string> = []
for (;;) {
  const gains = candidates
    .filter((file) => !kept.includes(file))
    .map((file) => ({ file, gain: [...(sent.get(file) ?? [])].filter((item) => !covered.has(item)) }))
    .sort((a, b) => b.gain.length - a.gain.length)
  const best = gains[0]
  if (best === undefined || best.gain.length === 0) break
  kept.push(best.file)
  for (const item of best.gain) covered.add(item)
  console.log(`needed  ${best.file} (${best.gain.length} statements no file kept before sends)`)
  if (flag === "--why") for (const item of best.gain) console.log(`          ${item.slice(0, 160)}`)
}
for (const file of candidates.filter((file) => !kept.includes(file)).sort()) {
  // covered: every statement it sends, a needed file sends too; silent: it sends none
  console.log(`${sent.has(file) ? "covered " : "silent  "} ${file}`)
}
console.log(
  `${covered.size} distinct statements from the service; ${kept.length} of ${candidates.length} *.both files needed to send them all`
)
