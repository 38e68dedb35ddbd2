import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { cycles, readImportGraph, repoRoot } from "./importGraph.ts"

// Features never ask which store they run on: SQL spelling comes from the
// store's dialect object (`db.sql`, infra/SqlDialect.ts), and behaviour that
// differs between one process and replicas from two layers of one service,
// chosen once by the store's capability in the composition (service.ts).
// Only infra/ (the store implementations) and the tests may name the dialect.

const NOT_FEATURES = new Set(["infra", "test", "node_modules", "data", "dist", "coverage"])

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith(".") || (dir === "" && NOT_FEATURES.has(entry.name))) return []
    const path = dir === "" ? entry.name : `${dir}/${entry.name}`
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith(".ts") ? [path] : []
  })

// `.dialect` read off anything, and a test of the dialect's reporting name.
const STORE_TESTS = [/\.dialect\b/, /\bsql\.name\s*[!=]==|[!=]==\s*\w+\.sql\.name\b/]

/** Every `file:line: text` in `source` that asks which store it runs on. */
export const storeTestsIn = (file: string, source: string) =>
  source
    .split("\n")
    .flatMap((line, index) =>
      STORE_TESTS.some((pattern) => pattern.test(line)) ? [`${file}:${index + 1}: ${line.trim()}`] : []
    )

/** Every `file:line: text` in `source` that reads the store's replicas capability. */
const sharedReadsIn = (file: string, source: string) =>
  source
    .split("\n")
    .flatMap((line, index) => (/\bsharedWithReplicas\b/.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : []))

describe("the storage seam", () => {
  it("finds the dialect tests it looks for", () => {
    expect(storeTestsIn("x.ts", 'if (db.dialect === "postgres") {')).toHaveLength(1)
    expect(storeTestsIn("x.ts", 'const copies = tx.sql.name !== "duckdb"')).toHaveLength(1)
    expect(storeTestsIn("x.ts", "const iso = db.sql.utcIsoSecond(column)")).toEqual([])
  })

  it("no feature folder (anything but infra/) asks which store it runs on", () => {
    const files = sourceFiles("")
    // The scan reaches the feature folders (a wrong root would pass vacuously).
    expect(files).toContain("links/TrackingLinks.ts")
    expect(files).toContain("service.ts")
    expect(files.some((file) => file.startsWith("infra/"))).toBe(false)
    const found = files.flatMap((file) => storeTestsIn(file, readFileSync(join(repoRoot, file), "utf8")))
    expect(found).toEqual([])
  })

  it("one process or replicas is decided once: `sharedWithReplicas` is read in the composition only", () => {
    expect(sharedReadsIn("x.ts", "const pass = db.sharedWithReplicas ? a : b")).toHaveLength(1)
    expect(sharedReadsIn("x.ts", "const { sharedWithReplicas } = db")).toHaveLength(1)
    const found = sourceFiles("")
      .filter((file) => file !== "service.ts")
      .flatMap((file) => sharedReadsIn(file, readFileSync(join(repoRoot, file), "utf8")))
    expect(found).toEqual([])
    expect(sharedReadsIn("service.ts", readFileSync(join(repoRoot, "service.ts"), "utf8"))).toHaveLength(1)
  })

  it("only infra/ opens a store: no product file imports a driver or a store implementation", () => {
    const opensStore = /from\s+["'](postgres|@duckdb\/[^"']*|[./]*\/infra\/(PgDatabase|DuckDbDatabase)\.ts)["']/
    expect(opensStore.test('import postgres from "postgres"')).toBe(true)
    expect(opensStore.test('import { makePgDatabase } from "../../infra/PgDatabase.ts"')).toBe(true)
    // bench/ measures the drivers themselves.
    const found = sourceFiles("")
      .filter((file) => !file.startsWith("bench/"))
      .filter((file) => opensStore.test(readFileSync(join(repoRoot, file), "utf8")))
    expect(found).toEqual([])
  })

  it("the seam's interface imports no driver, and the store modules form no import circle", () => {
    for (const file of ["infra/Store.ts", "infra/SqlDialect.ts"]) {
      const source = readFileSync(join(repoRoot, file), "utf8")
      expect(source.match(/from\s+["'](@duckdb\/[^"']*|postgres)["']/g), file).toBeNull()
    }
    const infra = new Map(
      [...readImportGraph(repoRoot)]
        .filter(([file]) => file.startsWith("infra/"))
        .map(([file, targets]) => [file, new Set(targets.filter((to) => to.startsWith("infra/")))] as const)
    )
    expect(infra.get("infra/Database.ts")).toContain("infra/PgDatabase.ts")
    expect(cycles(infra)).toEqual([])
  })
})
