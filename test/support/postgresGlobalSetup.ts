import type { TestProject } from "vitest/node"
import { startEmbeddedPostgres } from "./embeddedPostgres.ts"

// Global setup of the postgres project only, so it runs only when that
// project has tests to run: one PostgreSQL for the whole run (about 1 s to
// start), or the server TEST_DATABASE_URL names. Each test gets a database of
// its own on it (test/support/postgres.ts).
export default async function setup(project: TestProject) {
  const external = process.env.TEST_DATABASE_URL
  if (external !== undefined && external !== "") {
    project.provide("pgUrl", external)
    return
  }
  const started = Date.now()
  const server = await startEmbeddedPostgres()
  if (process.env.TEST_PG_VERBOSE === "1") console.error(`embedded PostgreSQL started in ${Date.now() - started} ms`)
  project.provide("pgUrl", server.url)
  return () => server.stop()
}
