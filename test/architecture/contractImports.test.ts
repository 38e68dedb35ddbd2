import { readdirSync, readFileSync } from "node:fs"
import { join, posix } from "node:path"
import { describe, expect, it } from "vitest"
import { repoRoot } from "./importGraph.ts"

// The HTTP contract (every api/**/Api.ts: endpoints, schemas, middleware
// declarations) is imported by clients too: the partner CLI derives its
// client from it. So loading it must not load what serves it: no service
// layers, no store or search drivers, no server-side HTTP, no pages. This
// follows the imports that run when a module loads (static, not type-only,
// not dynamic) from each Api.ts to every file they reach.

/** Packages a contract module may load: the schema and HttpApi declarations, and a few Node built-ins. */
const CONTRACT_PACKAGES = new Set(["effect", "effect/http-api", "node:fs", "node:path", "node:url", "node:crypto"])

/** A module that builds a service layer implements something; the contract only declares. */
const BUILDS_A_LAYER = /\bLayer\.(effect|succeed|sync|scoped|mergeAll|provide|unwrap)\b|layerSchemaErrorTransform/

// import ... from "x" / export ... from "x" / import "x", at the start of a statement (multi-line specifier lists included)
const STATIC_IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^"';]*?\sfrom\s*)?["']([^"']+)["']/g

interface ModuleImports {
  readonly files: ReadonlyArray<string>
  readonly packages: ReadonlyArray<string>
}

/** The imports of one file that run when it loads: relative files (repo-relative) and package specifiers. */
export const loadTimeImports = (file: string, source: string): ModuleImports => {
  const files: Array<string> = []
  const packages: Array<string> = []
  for (const [, , typeOnly, specifier] of source.matchAll(STATIC_IMPORT)) {
    if (typeOnly !== undefined) continue
    if (specifier!.startsWith(".")) files.push(posix.normalize(posix.join(posix.dirname(file), specifier!)))
    else packages.push(specifier!)
  }
  return { files, packages }
}

const contractRoots = (dir = "api"): Array<string> =>
  readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) return contractRoots(path)
    return entry.name === "Api.ts" ? [path] : []
  })

/** Every file loading `root` loads, with its load-time imports. */
const closure = (root: string) => {
  const seen = new Map<string, ModuleImports>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    const imports = loadTimeImports(file, readFileSync(join(repoRoot, file), "utf8"))
    seen.set(file, imports)
    imports.files.forEach(visit)
  }
  visit(root)
  return seen
}

describe("the API contract loads without what serves it", () => {
  const roots = contractRoots()

  it("finds the contract modules", () => {
    expect(roots).toContain("api/Api.ts")
    expect(roots).toContain("api/v1/links/Api.ts")
    expect(roots.length).toBeGreaterThan(10)
  })

  it.each(roots)("%s loads only declarations", (root) => {
    const problems = [...closure(root)].flatMap(([file, imports]) => [
      ...imports.packages
        .filter((specifier) => !CONTRACT_PACKAGES.has(specifier))
        .map((specifier) => `${file} imports ${specifier}`),
      ...(BUILDS_A_LAYER.test(readFileSync(join(repoRoot, file), "utf8")) ? [`${file} builds a service layer`] : [])
    ])
    expect(problems).toEqual([])
  })
})

describe("the check itself", () => {
  it("counts static imports, skips type-only and dynamic ones", () => {
    const source = [
      `import { Schema } from "effect"`,
      `import type { Partner } from "../../partners/Partners.ts"`,
      `import {`,
      `  BadRequest,`,
      `  type NotFound`,
      `} from "../errors.ts"`,
      `export { Page } from "./ListParams.ts"`,
      `export type { Row } from "../../infra/Database.ts"`,
      `import "./sideEffect.ts"`,
      `const lazy = () => import("../pages/render.ts")`
    ].join("\n")
    expect(loadTimeImports("api/v1/Api.ts", source)).toEqual({
      files: ["api/errors.ts", "api/v1/ListParams.ts", "api/v1/sideEffect.ts"],
      packages: ["effect"]
    })
  })
})
