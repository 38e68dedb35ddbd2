import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { repoRoot } from "./importGraph.ts"

// The tests mirror the code: test/<folder>/ tests the top-level source
// folder <folder>/, and `npm run test:<folder>` runs it. Folders that test no
// one source folder are listed here with the reason.

/** Test folders that are the suite's own machinery or cut across every folder. */
const NOT_A_SOURCE_FOLDER: Readonly<Record<string, string>> = {
  support: "helpers every suite shares: the service under test, HTTP clients, test databases, fixtures in code",
  fixtures: "data files the suites read",
  architecture: "checks of the source tree as a whole (import directions, this mirror)",
  cluster: "several service processes on one PostgreSQL, the replicas deployment across every feature",
  fuzz: "requests generated from /openapi.json against every operation of the service at once"
}

const foldersOf = (dir: string) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
    .map((entry) => entry.name)

/** Test folders without a source folder of the same name that neither list explains. */
const unmirrored = (
  testFolders: ReadonlyArray<string>,
  sourceFolders: ReadonlyArray<string>,
  explained: ReadonlyArray<string>
) => testFolders.filter((folder) => !sourceFolders.includes(folder) && !explained.includes(folder))

describe("tests mirror the code", () => {
  const testFolders = foldersOf(join(repoRoot, "test"))
  const sourceFolders = foldersOf(repoRoot).filter((folder) => folder !== "test" && folder !== "node_modules")
  const explained = Object.keys(NOT_A_SOURCE_FOLDER)
  const mirrored = testFolders.filter((folder) => sourceFolders.includes(folder))

  it("has a source folder for every test folder", () => {
    expect(mirrored).toEqual(expect.arrayContaining(["links", "pipelines", "domain"]))
    expect(unmirrored(testFolders, sourceFolders, explained)).toEqual([])
  })

  it("explains only folders that exist and have no source folder", () => {
    expect(explained.filter((folder) => !testFolders.includes(folder) || sourceFolders.includes(folder))).toEqual([])
  })

  it("runs each mirrored folder with npm run test:<folder>, on both stores", () => {
    const scripts: Record<string, string> = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).scripts
    const missing = mirrored.filter((folder) => scripts[`test:${folder}`] !== `vitest run test/${folder}/`)
    expect(missing).toEqual([])
  })

  it("fails on a test folder without a source folder (synthetic tree)", () => {
    expect(unmirrored(["links", "support", "linkz"], ["links", "domain"], ["support"])).toEqual(["linkz"])
  })
})
