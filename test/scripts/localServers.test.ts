import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { chmodSync, mkdirSync } from "node:fs"
import { createServer, type Server } from "node:net"
import { join, resolve } from "node:path"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { freeLoopbackPort } from "../../infra/freeLoopbackPort.ts"
import { isRunning } from "../../infra/ProcessInfo.ts"
import { meiliProcessesOn } from "../../infra/MeiliPidFile.ts"
import { tempDir } from "../support/TestService.ts"

// `npm run pg:local` and `npm run meili:local` as a newcomer runs them: in a
// checkout (here a temp folder as the working directory) where `npm start`
// already made data/var private (0700), possibly as root; stopped by SIGTERM.

const started: Array<ChildProcess> = []
const held: Array<Server> = []
const folders: Array<{ rm(): void }> = []
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
  for (const server of held.splice(0)) server.close()
})
afterAll(() => folders.forEach((folder) => folder.rm()))

const checkout = () => {
  const folder = tempDir("local-servers-")
  folders.push(folder)
  chmodSync(folder.dir, 0o755) // a checkout others may pass through, as a clone usually is (mkdtemp makes 0700)
  mkdirSync(join(folder.dir, "data")) // in the clone (the sample feeds)
  mkdirSync(join(folder.dir, "data", "var"), { mode: 0o700 }) // as npm start leaves it
  return folder.dir
}

const run = (script: string, cwd: string, env: Record<string, string>) => {
  const child = spawn(process.execPath, [resolve("scripts", script)], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  started.push(child)
  let stdout = ""
  let stderr = ""
  child.stdout!.on("data", (chunk) => (stdout += chunk))
  child.stderr!.on("data", (chunk) => (stderr += chunk))
  const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)))
  return { child, exited, stdout: () => stdout, stderr: () => stderr }
}

const holdPort = async () => {
  const port = await freeLoopbackPort()
  const blocker = createServer()
  held.push(blocker)
  await new Promise<void>((done) => blocker.listen(port, "127.0.0.1", done))
  return port
}

const postgresOn = (dataDir: string) =>
  execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes("postgres") && line.includes(dataDir))
    .map((line) => Number(line.trim().split(/\s+/)[0]))

describe("pg:local and meili:local", () => {
  it("a taken port is one line naming it and the variable to change", async () => {
    const cwd = checkout()
    const pgPort = await holdPort()
    const pg = run("pg-local.ts", cwd, { PG_PORT: String(pgPort) })
    expect(await pg.exited).toBe(1)
    expect(pg.stderr()).toBe(
      `pg:local: port ${pgPort} on 127.0.0.1 is in use (another server, or this one already running): ` +
        `set PG_PORT to a free port, e.g. PG_PORT=${pgPort + 1} npm run pg:local\n`
    )
    const meiliPort = await holdPort()
    const meili = run("meili-local.ts", cwd, { MEILI_PORT: String(meiliPort) })
    expect(await meili.exited).toBe(1)
    expect(meili.stderr()).toBe(
      `meili:local: port ${meiliPort} on 127.0.0.1 is in use (another server, or this one already running): ` +
        `set MEILI_PORT to a free port, e.g. MEILI_PORT=${meiliPort + 1} npm run meili:local\n`
    )
  })

  it("a folder an interrupted first start left half-made is named, with how to clear it", async () => {
    const cwd = checkout()
    const root = process.getuid?.() === 0 ? "data/postgres" : "data/var/postgres"
    mkdirSync(join(cwd, root, "data"), { recursive: true })
    const port = await freeLoopbackPort()
    const pg = run("pg-local.ts", cwd, { PG_PORT: String(port) })
    expect(await pg.exited).toBe(1)
    expect(pg.stderr()).toBe(
      `pg:local: ${root} is half-made (an earlier first start stopped before it finished): ` +
        `remove it with \`rm -rf ${root}\` and run again\n`
    )
    mkdirSync(join(cwd, "data/var/meili-local/data.ms"), { recursive: true })
    const meili = run("meili-local.ts", cwd, { MEILI_PORT: String(await freeLoopbackPort()) })
    expect(await meili.exited).toBe(1)
    expect(meili.stderr()).toContain("data/var/meili-local is half-made")
  })

  it("as root, names the folder the postgres user cannot pass through", async () => {
    if (process.getuid?.() !== 0) return expect(process.getuid?.()).not.toBe(0) // only root hands the cluster to another user
    const cwd = checkout()
    chmodSync(cwd, 0o700)
    const pg = run("pg-local.ts", cwd, { PG_PORT: String(await freeLoopbackPort()) })
    expect(await pg.exited).toBe(1)
    expect(pg.stderr()).toBe(
      `pg:local: as root, PostgreSQL runs as the postgres user, who cannot pass through ${cwd} (mode 700): ` +
        `run pg:local as another user, or allow passing through (chmod o+x ${cwd})\n`
    )
  })

  it("starts PostgreSQL beside a private data/var (as root too), and SIGTERM stops it", async () => {
    const cwd = checkout()
    const port = await freeLoopbackPort()
    const pg = run("pg-local.ts", cwd, { PG_PORT: String(port) })
    const deadline = Date.now() + 120_000
    while (!pg.stdout().includes("export DATABASE_URL") && pg.child.exitCode === null && Date.now() < deadline)
      await new Promise((done) => setTimeout(done, 200))
    expect(pg.stderr()).toBe("")
    expect(pg.stdout()).toContain(`export DATABASE_URL=postgres://postgres:local@127.0.0.1:${port}/affiliate`)
    const dataDir = join(cwd, process.getuid?.() === 0 ? "data/postgres" : "data/var/postgres", "data")
    const servers = postgresOn(dataDir)
    expect(servers.length).toBeGreaterThan(0)
    pg.child.kill("SIGTERM")
    expect(await pg.exited).toBe(0)
    for (const pid of servers) expect(isRunning(pid)).toBe(false)
  }, 180_000)

  it("starts Meilisearch in the private data/var, and SIGTERM stops it", async () => {
    const cwd = checkout()
    const port = await freeLoopbackPort()
    const meili = run("meili-local.ts", cwd, { MEILI_PORT: String(port) })
    const deadline = Date.now() + 60_000
    while (!meili.stdout().includes("export MEILI_URL") && meili.child.exitCode === null && Date.now() < deadline)
      await new Promise((done) => setTimeout(done, 200))
    expect(meili.stdout()).toContain(`export MEILI_URL=http://127.0.0.1:${port} MEILI_MASTER_KEY=local-master-key`)
    const dataDir = join(cwd, "data/var/meili-local")
    const [child] = meiliProcessesOn(dataDir)
    expect(child).toBeGreaterThan(0)
    meili.child.kill("SIGTERM")
    expect(await meili.exited).toBe(0)
    expect(isRunning(child)).toBe(false)
    expect(meiliProcessesOn(dataDir)).toEqual([])
  }, 120_000)
})
