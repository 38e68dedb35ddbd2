import postgres from "postgres"
import { startEmbeddedPostgres as startServer } from "../../test/support/embeddedPostgres.ts"

// A throwaway PostgreSQL for benches: the test suite's embedded server (temp
// data folder, free loopback port, removed on stop) with a database of its own, and fsync on so writes cost what they would in production.
export const startEmbeddedPostgres = async (database = "bench") => {
  const server = await startServer({ durable: true })
  await server.started
  const admin = postgres(server.url, { max: 1, onnotice: () => undefined })
  await admin.unsafe(`CREATE DATABASE "${database.replace(/"/g, '""')}"`)
  await admin.end()
  const url = new URL(server.url)
  url.pathname = `/${database}`
  return { url: url.toString(), stop: server.stop }
}
