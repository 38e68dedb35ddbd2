import { type ChildProcess, spawn } from "node:child_process"
import { createServer, type Server } from "node:net"
import { join } from "node:path"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { freeLoopbackPort } from "../../infra/freeLoopbackPort.ts"
import { tempDir } from "../support/TestService.ts"

// What `npm start` (node main.ts) tells its operator: one line with the URL,
// the admin-token file and the store once it serves; one line naming the port
// and the variable to change when the port is taken.

const started: Array<ChildProcess> = []
const folders: Array<{ rm(): void }> = []
const held: Array<Server> = []
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
  for (const server of held.splice(0)) server.close()
})
afterAll(() => folders.forEach((folder) => folder.rm()))

const { MEILI_URL: _url, MEILI_MASTER_KEY: _key, MEILI_INDEX_PREFIX: _prefix, ...serviceEnv } = process.env

const launch = (port: number) => {
  const folder = tempDir("startlines-")
  folders.push(folder)
  const child = spawn(process.execPath, ["main.ts"], {
    env: {
      ...serviceEnv,
      PORT: String(port),
      DATA_DIR: folder.dir,
      INGEST_ON_START: "false",
      SCHEDULES_ENABLED: "false"
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  started.push(child)
  let stdout = ""
  let stderr = ""
  child.stdout!.on("data", (chunk) => (stdout += chunk))
  child.stderr!.on("data", (chunk) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  return { child, dataDir: folder.dir, exited, stdout: () => stdout, stderr: () => stderr }
}

const SLOW = 120_000

describe("npm start's own lines", () => {
  it(
    "says once where it serves, where the admin token is and which store it uses",
    async () => {
      const port = await freeLoopbackPort()
      const service = launch(port)
      const deadline = Date.now() + 90_000
      while (!service.stdout().includes('"message":"serving ') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100))
      const line = service
        .stdout()
        .split("\n")
        .find((l) => l.includes('"message":"serving '))
      expect(JSON.parse(line!).message).toBe(
        `serving http://127.0.0.1:${port} (admin token in ${join(service.dataDir, "admin-token")}; ` +
          `store DuckDB ${join(service.dataDir, "catalog.duckdb")})`
      )
      // it serves by then
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200)
      service.child.kill("SIGTERM")
      expect(await service.exited).toBe(0)
    },
    SLOW
  )

  it(
    "ends with one line naming the taken port and PORT, exit code 1, no stack",
    async () => {
      const port = await freeLoopbackPort()
      const blocker = createServer()
      held.push(blocker)
      await new Promise<void>((resolve) => blocker.listen(port, "127.0.0.1", resolve))
      const service = launch(port)
      expect(await service.exited).toBe(1)
      expect(service.stderr().trim()).toBe(
        `port ${port} on 127.0.0.1 is in use (another service, or this one already running): ` +
          `set PORT to a free port, e.g. PORT=${port + 1} npm start`
      )
      expect(service.stdout()).not.toMatch(/ServeError|EADDRINUSE|\n\s+at /)
    },
    SLOW
  )
})
