import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { repoRoot } from "./importGraph.ts"

// What `npm start` loads before it can say anything, and before it can answer
// /health. The first log line comes after ServeMain.ts's static imports only
// (the service's code is a dynamic import after it); the service's own static
// graph leaves out what start-up does not use: the MCP face (effect/ai, its RPC
// server), the partner dashboard (pages, QR codes), and the barrel index of
// @effect/platform-node (which loads a Redis client, cluster runners and
// WebSockets the service never uses).

const node = join(repoRoot, "node_modules", ".bin", "node")

/** Every module URL Node loads to import `specifiers` (repository-relative or packages), in a fresh process. */
const modulesLoadedBy = (specifiers: ReadonlyArray<string>) =>
  execFileSync(node, ["--import", "./test/architecture/loadedModules.ts", "-e", ""], {
    cwd: repoRoot,
    env: { ...process.env, LOADED_MODULES_OF: JSON.stringify(specifiers), NODE_DISABLE_COMPILE_CACHE: "1" },
    encoding: "utf8"
  })
    .split("\n")
    .filter((url) => url !== "")

/** ServeMain.ts's static imports (`import ... from "x"`; a dynamic `import("x")` is not one). */
const staticImportsOf = (file: string) =>
  [...readFileSync(join(repoRoot, file), "utf8").matchAll(/^import\s[^;]*?\sfrom\s+"([^"]+)"/gm)].map(
    ([, specifier]) => (specifier.startsWith(".") ? `./${specifier.slice(2)}` : specifier)
  )

const matching = (urls: ReadonlyArray<string>, patterns: ReadonlyArray<RegExp>) =>
  urls.filter((url) => patterns.some((pattern) => pattern.test(url)))

describe("what start-up loads", () => {
  it("reads the static imports of a file, not its dynamic ones", () => {
    expect(staticImportsOf("ServeMain.ts")).toEqual(expect.arrayContaining(["./ServeUntilStopped.ts"]))
    expect(staticImportsOf("main.ts")).toEqual(["node:module"])
  })

  it("before the first log line: not the service, nor a store driver, nor effect's whole index", () => {
    const urls = modulesLoadedBy(staticImportsOf("ServeMain.ts"))
    expect(matching(urls, [/\/ServeUntilStopped\.ts$/])).toHaveLength(1)
    expect(
      matching(urls, [/\/service\.ts$/, /\/api\//, /\/pipelines\//, /@duckdb\//, /\/effect\/dist\/index\.js$/])
    ).toEqual([])
    // a few hundred modules are the service's; what comes before the first line is a fraction of them
    expect(urls.length).toBeLessThan(250)
  }, 60_000)

  it("the service's code: not the MCP server, the dashboard's pages, or the platform index's extras", () => {
    const urls = modulesLoadedBy(["./service.ts"])
    expect(matching(urls, [/\/api\/Server\.ts$/, /\/api\/LazyRoutes\.ts$/])).toHaveLength(2)
    expect(
      matching(urls, [
        /\/effect\/dist\/ai\//,
        /\/effect\/dist\/cluster\//,
        /\/node_modules\/(@redis|redis)\//,
        /\/node_modules\/qrcode\//,
        /\/api\/mcp\/McpRoute\.ts$/,
        /\/api\/partner\/DashboardRoutes\.ts$/,
        /\/api\/partner\/pages\//
      ])
    ).toEqual([])
  }, 60_000)
})
