import { randomBytes } from "node:crypto"
import { appendFileSync } from "node:fs"
import { expect, inject } from "vitest"
import { connectPostgres } from "../../infra/postgres/client.ts"
import { statementLogFromEnv } from "./embeddedPostgres.ts"

/** Which store this test run exercises: the postgres vitest project sets TEST_STORE=postgres. */
export const testStore = (): "duckdb" | "postgres" => (process.env.TEST_STORE === "postgres" ? "postgres" : "duckdb")

// The suite's server may still be starting (postgresGlobalSetup.ts does not
// wait for it): connection refused and "starting up" (57P03) are retried.
const STARTING = new Set(["ECONNREFUSED", "57P03"])
const STARTUP_WAIT_MS = 60_000

const untilStarted = async <A>(attempt: () => Promise<A>): Promise<A> => {
  const deadline = Date.now() + STARTUP_WAIT_MS
  for (;;) {
    try {
      return await attempt()
    } catch (error) {
      const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined
      if (typeof code !== "string" || !STARTING.has(code) || Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

// CREATE DATABASE ... TEMPLATE is refused while anyone is connected to the
// template (55006): a pool that just closed may still be saying goodbye.
const TEMPLATE_BUSY = "55006"

const createDatabase = async (sql: ReturnType<typeof connectPostgres>, name: string, template?: string) => {
  for (let attempt = 0; ; attempt++) {
    try {
      await sql.unsafe(`CREATE DATABASE ${name}${template === undefined ? "" : ` TEMPLATE ${template}`}`)
      return
    } catch (error) {
      const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined
      if (code !== TEMPLATE_BUSY || attempt >= 50) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

// Beside the statement log, which test file made each database.
const recordDatabase = (name: string) => {
  const log = statementLogFromEnv()
  if (log !== undefined) appendFileSync(`${log}.databases`, `${name}\t${expect.getState().testPath ?? ""}\n`)
}

/** The name of the database a URL from `freshDatabaseUrl` points at. */
export const databaseName = (url: string) => new URL(url).pathname.slice(1)

/**
 * A new database on the test PostgreSQL, and its URL: empty, or a copy of
 * `template` (a database nobody is connected to). Each service or test gets
 * its own, so test files run in parallel. Dropped with the server at the end
 * of the run (on a TEST_DATABASE_URL server they stay: names start with `t_`).
 */
export const freshDatabaseUrl = async (template?: string): Promise<string> => {
  const serverUrl = inject("pgUrl")
  const name = `t_${randomBytes(8).toString("hex")}`
  const sql = connectPostgres(serverUrl, 1)
  try {
    await untilStarted(() => createDatabase(sql, name, template))
  } finally {
    await sql.end()
  }
  recordDatabase(name)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}
