import { randomBytes } from "node:crypto"
import { inject } from "vitest"
import { connectPostgres } from "../../infra/postgres/client.ts"

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

/**
 * A new, empty database on the test PostgreSQL, and its URL: each service or
 * test gets its own, so test files run in parallel. Dropped with the server
 * at the end of the run (on a TEST_DATABASE_URL server they stay: names start
 * with `t_`).
 */
export const freshDatabaseUrl = async (): Promise<string> => {
  const serverUrl = inject("pgUrl")
  const name = `t_${randomBytes(8).toString("hex")}`
  const sql = connectPostgres(serverUrl, 1)
  try {
    await untilStarted(() => sql.unsafe(`CREATE DATABASE ${name}`))
  } finally {
    await sql.end()
  }
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}
