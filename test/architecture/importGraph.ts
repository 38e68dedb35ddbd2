import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, posix } from "node:path"

// The import graph of the source tree and the folder direction it must keep.
// A folder is the first path segment; the files at the top (main.ts,
// service.ts) are "(root)". Type-only imports count: they couple folders too.

/** repo-relative file -> repo-relative files it imports (relative specifiers only). */
export type ImportGraph = ReadonlyMap<string, ReadonlyArray<string>>

export const ROOT = "(root)"

const FEATURES = [
  "readModel",
  "pipelines",
  "clicks",
  "conversions",
  "partners",
  "links",
  "catalog",
  "discovery",
  "ai"
] as const
const EVERYTHING = ["domain", "infra", ...FEATURES, "api", "cli", "bench", "scripts", "test", ROOT]

/**
 * Who may import whom, one line per folder. Features name the features they
 * build on; the table itself must stay acyclic, so a feature never reaches
 * back up (e.g. pipelines never import conversions: conversions register
 * their loader into the pipelines' registry instead; links never import
 * conversions: conversions subscribe to the LinkCreated events links publish).
 */
export const ALLOWED: Readonly<Record<string, ReadonlyArray<string>>> = {
  domain: [],
  infra: ["domain"],
  readModel: ["domain", "infra"],
  pipelines: ["domain", "infra", "readModel"],
  clicks: ["domain", "infra"],
  conversions: ["domain", "infra", "pipelines"],
  partners: ["domain", "infra"],
  // links announce new links and follow catalog changes through infra/events/: no conversions, no pipelines
  links: ["domain", "infra", "partners"],
  catalog: ["domain", "infra"],
  discovery: ["domain", "infra", "readModel"],
  ai: ["domain", "infra", "readModel", "discovery", "links", "partners"],
  api: ["domain", "infra", ...FEATURES],
  cli: ["domain", "infra", ...FEATURES],
  bench: EVERYTHING.filter((folder) => folder !== "api" && folder !== "cli"),
  scripts: EVERYTHING.filter((folder) => folder !== "api" && folder !== "cli"),
  [ROOT]: EVERYTHING
}

/** Single files a folder may import beyond ALLOWED: the partner CLI speaks the API's contracts (and MCP envelope). */
export const ALLOWED_FILES: Readonly<Record<string, ReadonlyArray<RegExp>>> = {
  cli: [
    /^api\/(.*\/)?Api\.ts$/,
    /^api\/mcp\/toolDefinitions\.ts$/,
    /^api\/mcp\/toolEnvelopes\.ts$/,
    /^api\/mcp\/serverInfo\.ts$/
  ]
}

export const folderOf = (file: string) => (file.includes("/") ? file.slice(0, file.indexOf("/")) : ROOT)

const SKIPPED = new Set(["node_modules", "test", "data"])

const sourceFiles = (root: string, dir = ""): Array<string> =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith(".") || (dir === "" && SKIPPED.has(entry.name))) return []
    const path = dir === "" ? entry.name : `${dir}/${entry.name}`
    if (entry.isDirectory()) return sourceFiles(root, path)
    return entry.name.endsWith(".ts") ? [path] : []
  })

// import/export ... from "x", import "x", import("x"), new URL("x", import.meta.url)
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|new URL\(\s*)["'](\.{1,2}\/[^"']+)["']/g

export const importsOf = (file: string, source: string): Array<string> =>
  [...source.matchAll(SPECIFIER)].map((match) => posix.normalize(posix.join(posix.dirname(file), match[1]!)))

export const readImportGraph = (root: string): ImportGraph =>
  new Map(sourceFiles(root).map((file) => [file, importsOf(file, readFileSync(join(root, file), "utf8"))]))

export interface BackEdge {
  readonly from: string
  readonly to: string
}

/** Imports from one folder into another that ALLOWED does not list. */
export const backEdges = (
  graph: ImportGraph,
  allowed: Readonly<Record<string, ReadonlyArray<string>>> = ALLOWED,
  allowedFiles: Readonly<Record<string, ReadonlyArray<RegExp>>> = ALLOWED_FILES
): Array<BackEdge> =>
  [...graph].flatMap(([from, targets]) =>
    targets
      .filter((to) => {
        const source = folderOf(from)
        const target = folderOf(to)
        if (source === target) return false
        if ((allowed[source] ?? []).includes(target)) return false
        return !(allowedFiles[source] ?? []).some((pattern) => pattern.test(to))
      })
      .map((to) => ({ from, to }))
  )

/** Cycles between folders (each as its folders in order), in a folder -> folders graph. */
export const cycles = (edges: ReadonlyMap<string, ReadonlySet<string>>): Array<Array<string>> => {
  const found: Array<Array<string>> = []
  const done = new Set<string>()
  const visit = (node: string, path: Array<string>) => {
    const at = path.indexOf(node)
    if (at >= 0) return void found.push([...path.slice(at), node])
    if (done.has(node)) return
    for (const next of edges.get(node) ?? []) visit(next, [...path, node])
    done.add(node)
  }
  for (const node of edges.keys()) visit(node, [])
  return found
}

/** The folder graph of a file graph (self-edges dropped). */
export const folderGraph = (graph: ImportGraph): Map<string, Set<string>> => {
  const edges = new Map<string, Set<string>>()
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (folderOf(from) === folderOf(to)) continue
      edges.set(folderOf(from), (edges.get(folderOf(from)) ?? new Set()).add(folderOf(to)))
    }
  }
  return edges
}

/** ALLOWED as a graph, to check that the table itself has no cycle among the layered folders. */
export const allowedGraph = (
  allowed: Readonly<Record<string, ReadonlyArray<string>>>,
  layered: ReadonlyArray<string>
) => new Map(layered.map((folder) => [folder, new Set((allowed[folder] ?? []).filter((to) => layered.includes(to)))]))

export const LAYERED = ["domain", "infra", ...FEATURES, "api"]

export const repoRoot = join(dirname(new URL(import.meta.url).pathname), "..", "..")
