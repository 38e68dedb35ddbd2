import { execFileSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { tempDir } from "../support/TestService.ts"

// scripts/postgres-statements.ts over a statement log as the suite's
// PostgreSQL writes it (log_line_prefix '%d|', log_statement all: PostgreSQL's
// "Error Reporting and Logging" settings): which *.both files the postgres
// project needs, and which statements are the service's.

const folder = tempDir("pg-statements-")
afterAll(() => folder.rm())

const log = join(folder.dir, "pg.log")
const databases = {
  t_0000000000000001: "test/a.postgres.test.ts",
  t_0000000000000002: "test/b.both.test.ts",
  t_0000000000000003: "test/c.both.test.ts",
  t_0000000000000004: "test/d.both.test.ts"
}
// Service statements (their text is in the service's source), one a test sends itself, a refusal.
const SESSIONS = "DELETE FROM partner_sessions WHERE expires_at <= $1::TIMESTAMPTZ"
const TESTS_OWN = "SELECT 'only this test sends it' AS marker_of_a_test_statement"
writeFileSync(
  log,
  [
    "|LOG:  database system is ready to accept connections",
    `t_0000000000000001|LOG:  execute <unnamed>: ${SESSIONS}`,
    // the same statement with other values, and spread over lines
    "t_0000000000000002|LOG:  execute s1: SELECT id FROM partners",
    "\t WHERE tag = $1",
    `t_0000000000000002|LOG:  execute <unnamed>: ${SESSIONS}`,
    "t_0000000000000003|LOG:  execute s2: SELECT id FROM partners WHERE tag = $1",
    `t_0000000000000003|LOG:  statement: ${TESTS_OWN}`,
    't_0000000000000003|ERROR:  relation "partners" does not exist at character 16',
    `t_0000000000000004|LOG:  statement: ${TESTS_OWN}`,
    ""
  ].join("\n")
)
writeFileSync(
  `${log}.databases`,
  Object.entries(databases)
    .map(([name, file]) => `${name}\t${join(process.cwd(), file)}\n`)
    .join("")
)
const run = (...flags: Array<string>) =>
  execFileSync(process.execPath, ["scripts/postgres-statements.ts", log, ...flags], { encoding: "utf8" })

describe("scripts/postgres-statements.ts", () => {
  it("keeps the *.both files that alone send a statement; a file whose every statement another sends is covered", () => {
    expect(run().split("\n")).toEqual([
      "needed  test/c.both.test.ts (2 statements no file kept before sends)",
      "covered  test/b.both.test.ts",
      "silent   test/d.both.test.ts",
      "3 distinct statements from the service; 1 of 3 *.both files needed to send them all",
      ""
    ])
  })

  it("lists the service's statements by shape, without the tests' own", () => {
    expect(run("--list").split("\n")).toEqual([
      "DELETE FROM partner_sessions WHERE expires_at <= $::TIMESTAMPTZ",
      "SELECT id FROM partners WHERE tag = $",
      'refused: relation "partners" does not exist at character ?',
      ""
    ])
  })
})
