import { describe, expect, it } from "vitest"
import {
  ALLOWED,
  allowedGraph,
  backEdges,
  cycles,
  folderGraph,
  type ImportGraph,
  importsOf,
  LAYERED,
  readImportGraph,
  repoRoot
} from "./importGraph.ts"

// Issue 17: no folder imports upward. ALLOWED (importGraph.ts) is the one
// table of directions; this suite reads every source file's imports.

describe("import direction", () => {
  const graph = readImportGraph(repoRoot)

  it("reads the source tree", () => {
    expect(graph.size).toBeGreaterThan(200)
    expect(graph.get("service.ts")).toContain("api/Server.ts")
  })

  it("has no back-edge", () => {
    expect(backEdges(graph).map(({ from, to }) => `${from} -> ${to}`)).toEqual([])
  })

  it("has no cycle between the layered folders", () => {
    const layered = new Map([...folderGraph(graph)].filter(([folder]) => LAYERED.includes(folder)))
    expect(cycles(layered)).toEqual([])
  })

  it("allows no cycle in its own table", () => {
    expect(cycles(allowedGraph(ALLOWED, LAYERED))).toEqual([])
  })
})

describe("the checks themselves (synthetic graphs)", () => {
  it("parses static, type-only, re-export, dynamic and worker specifiers; ignores packages", () => {
    const source = [
      `import { Effect } from "effect"`,
      `import type { A } from "../infra/A.ts"`,
      `export { B } from "./B.ts"`,
      `const c = await import("../domain/c.ts")`,
      `new Worker(new URL("./worker.ts", import.meta.url))`
    ].join("\n")
    expect(importsOf("links/X.ts", source)).toEqual(["infra/A.ts", "links/B.ts", "domain/c.ts", "links/worker.ts"])
  })

  it("fails on a planted back-edge", () => {
    const planted: ImportGraph = new Map([
      ["domain/rule.ts", ["infra/Database.ts"]],
      ["pipelines/layer.ts", ["conversions/layer.ts", "infra/Database.ts"]],
      ["links/Matcher.ts", ["domain/rule.ts", "partners/Partners.ts"]],
      ["cli/status.ts", ["api/admin/Http.ts", "api/admin/Api.ts"]]
    ])
    expect(backEdges(planted)).toEqual([
      { from: "domain/rule.ts", to: "infra/Database.ts" },
      { from: "pipelines/layer.ts", to: "conversions/layer.ts" },
      { from: "cli/status.ts", to: "api/admin/Http.ts" }
    ])
  })

  it("finds a folder cycle", () => {
    const planted: ImportGraph = new Map([
      ["conversions/Loader.ts", ["pipelines/FeedLoaders.ts"]],
      ["pipelines/layer.ts", ["conversions/Loader.ts"]],
      ["links/A.ts", ["partners/B.ts"]]
    ])
    expect(cycles(folderGraph(planted))).toEqual([["conversions", "pipelines", "conversions"]])
    expect(cycles(allowedGraph({ a: ["b"], b: ["c"], c: ["a"] }, ["a", "b", "c"]))).toEqual([["a", "b", "c", "a"]])
  })
})
