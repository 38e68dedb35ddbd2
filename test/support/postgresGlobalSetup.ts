import type { TestProject } from "vitest/node"
import { startEmbeddedPostgres, statementLogFromEnv } from "./embeddedPostgres.ts"

// Global setup of the postgres project only, so it runs only when that
// project has tests to run: one PostgreSQL for the whole run, or the server
// TEST_DATABASE_URL names. Each test gets a database of its own on it
// (test/support/postgres.ts). Its URL is known up front, so this returns at
// once and the server (about 1 s to start) comes up while vitest starts
// Meilisearch; freshDatabaseUrl waits for it.
export default async function setup(project: TestProject) {
  const external = process.env.TEST_DATABASE_URL
  if (external !== undefined && external !== "") {
    project.provide("pgUrl", external)
    return
  }
  const began = Date.now()
  const server = await startEmbeddedPostgres({ statementLog: statementLogFromEnv() })
  server.started.then(
    () => {
      if (process.env.TEST_PG_VERBOSE === "1") console.error(`embedded PostgreSQL started in ${Date.now() - began} ms`)
    },
    (error: unknown) => console.error("embedded PostgreSQL failed to start:", error)
  )
  project.provide("pgUrl", server.url)
  return () => server.stop()
}
