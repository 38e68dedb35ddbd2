import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { meiliDbPath, meiliProcessesOn, writeMeiliPidFile } from "../../infra/MeiliPidFile.ts"
import { freeLoopbackPort } from "../../infra/freeLoopbackPort.ts"
import { resolveMeiliBinary } from "../../infra/MeiliServer.ts"
import { isRunning, statFields } from "../../infra/ProcessInfo.ts"
import { tempDir } from "../support/TestService.ts"

// The service as operators run it: `node main.ts` (or `npm start`) in its own
// process, with the embedded Meilisearch, killed and restarted on one DATA_DIR.

const started: Array<ChildProcess> = []
const folders: Array<{ rm(): void }> = []
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
})
afterAll(() => folders.forEach((folder) => folder.rm()))

const newDataDir = () => {
  const folder = tempDir("lifecycle-")
  folders.push(folder)
  return folder.dir
}

const until = async (what: string, check: () => boolean | Promise<boolean>, ms: number) => {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${what}: not within ${ms} ms`)
}

// The embedded Meilisearch, whatever this shell points at.
const { MEILI_URL: _url, MEILI_MASTER_KEY: _key, MEILI_INDEX_PREFIX: _prefix, ...serviceEnv } = process.env

/** Starts the service (`node main.ts`, or another command) on `dataDir`; resolves once /health answers unless `expectExit`. */
const launch = async (
  dataDir: string,
  command: Array<string> = [process.execPath, "main.ts"],
  options: { readonly detached?: boolean } = {}
) => {
  const port = await freeLoopbackPort()
  const child = spawn(command[0], command.slice(1), {
    env: { ...serviceEnv, PORT: String(port), DATA_DIR: dataDir, INGEST_ON_START: "false", SCHEDULES_ENABLED: "false" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: options.detached ?? false
  })
  started.push(child)
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  return {
    child,
    port,
    /** Its exit code; a process still running after `ms` fails the test with what it printed. */
    exit: (ms = 60_000) =>
      until("the process to exit", () => child.exitCode !== null || child.signalCode !== null, ms).then(
        () => exited,
        (error: Error) =>
          Promise.reject(
            new Error(`${error.message}; its threads:\n${threadStates(child.pid!)}\nit printed:\n${output}`)
          )
      ),
    output: () => output,
    healthy: () =>
      until(
        "/health",
        () =>
          fetch(`http://127.0.0.1:${port}/health`).then(
            (r) => r.ok,
            () => false
          ),
        60_000
      )
  }
}

/**
 * Each thread of a process that did not exit: its name, state and the kernel
 * function it waits in, to tell a thread stuck in a call (a pool thread
 * joined at exit) from a process that never began to exit.
 */
const threadStates = (pid: number) => {
  try {
    return readdirSync(`/proc/${pid}/task`)
      .map((tid) => {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "latin1")
        const wchan = readFileSync(`/proc/${pid}/task/${tid}/wchan`, "latin1")
        return `  ${tid} ${stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))} ${statFields(stat)[0]} ${wchan}`
      })
      .join("\n")
  } catch (error) {
    return `  (not readable: ${error instanceof Error ? error.message : String(error)})`
  }
}

/** A process's group and session (/proc/<pid>/stat). */
const groupOf = (pid: number) => {
  const fields = statFields(readFileSync(`/proc/${pid}/stat`, "latin1"))
  return { group: Number(fields[2]), session: Number(fields[3]) }
}
const servicePid = (dataDir: string): number => JSON.parse(readFileSync(join(dataDir, "service.pid"), "utf8")).pid
const meiliDir = (dataDir: string) => join(dataDir, "meilisearch")

// Each test starts one to three real service processes: generous on a loaded machine.
const SLOW = 180_000

describe("the service process and its Meilisearch child", () => {
  it(
    "SIGKILL of the service leaves no Meilisearch behind; a second service on the DATA_DIR fails fast saying what to do; the next start runs exactly one",
    async () => {
      const dataDir = newDataDir()
      const first = await launch(dataDir)
      await first.healthy()
      const [child] = meiliProcessesOn(meiliDir(dataDir))
      expect(child).toBeGreaterThan(0)

      const second = await launch(dataDir)
      expect(await second.exit()).not.toBe(0)
      expect(second.output()).toContain(`is in use by another service process (pid ${first.child.pid})`)
      expect(second.output()).toContain(`kill -TERM ${first.child.pid}`)
      expect(meiliProcessesOn(meiliDir(dataDir))).toEqual([child])

      first.child.kill("SIGKILL")
      await first.exit()
      // setpriv --pdeathsig: the kernel ends the child with its parent
      await until("the Meilisearch child to end with the service", () => !isRunning(child), 10_000)
      expect(meiliProcessesOn(meiliDir(dataDir))).toEqual([])

      const third = await launch(dataDir)
      await third.healthy()
      expect(third.output()).toContain("DATA_DIR lock left by a process that is gone")
      expect(meiliProcessesOn(meiliDir(dataDir))).toHaveLength(1)
      third.child.kill("SIGTERM")
      expect(await third.exit()).toBe(0)
      expect(meiliProcessesOn(meiliDir(dataDir))).toEqual([])
    },
    SLOW
  )

  it(
    "stops a Meilisearch left by a previous run (one started without setpriv), found through its pid file, before starting its own",
    async () => {
      const dataDir = newDataDir()
      const dir = meiliDir(dataDir)
      mkdirSync(dir, { recursive: true })
      const binary = await Effect.runPromise(resolveMeiliBinary())
      const port = await freeLoopbackPort()
      const orphan = spawn(
        binary,
        [
          "--http-addr",
          `127.0.0.1:${port}`,
          "--db-path",
          meiliDbPath(dir),
          "--no-analytics",
          "--master-key",
          "orphan-key-0123456789abcdef"
        ],
        {
          stdio: "ignore",
          detached: true
        }
      )
      started.push(orphan)
      writeMeiliPidFile(dir, orphan.pid!)
      await until(
        "the orphan to answer",
        () =>
          fetch(`http://127.0.0.1:${port}/health`).then(
            (r) => r.ok,
            () => false
          ),
        30_000
      )

      const service = await launch(dataDir)
      await service.healthy()
      expect(service.output()).toContain("a Meilisearch left by a previous run still serves this DATA_DIR: stopping it")
      expect(isRunning(orphan.pid!)).toBe(false)
      const running = meiliProcessesOn(dir)
      expect(running).toHaveLength(1)
      expect(running[0]).not.toBe(orphan.pid)
      service.child.kill("SIGTERM")
      await service.exit()
    },
    SLOW
  )

  it(
    "runs Meilisearch in the service's session but in a process group of its own: a Ctrl-C reaches only the service, which stops Meilisearch in order",
    async () => {
      const dataDir = newDataDir()
      // a process group of its own, as a terminal's foreground job
      const service = await launch(dataDir, undefined, { detached: true })
      await service.healthy()
      const [meili] = meiliProcessesOn(meiliDir(dataDir))
      const ours = groupOf(service.child.pid!)
      // Linux autogroups share a busy CPU between sessions first: only in our
      // session does BACKGROUND_NICE put its indexing behind our threads
      expect(groupOf(meili!)).toEqual({ group: meili, session: ours.session })
      expect(ours.group).not.toBe(meili)

      // Ctrl-C: the terminal signals its foreground process group
      process.kill(-ours.group, "SIGINT")
      expect(await service.exit()).toBe(0)
      const lines = service
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line))
      expect(lines.find((line) => line.message === "shutdown started")?.annotations).toMatchObject({ signal: "SIGINT" })
      // Meilisearch did not die under the service mid-shutdown
      const supervision = ["embedded Meilisearch exited", "restarting embedded Meilisearch"]
      expect(lines.filter((line) => supervision.includes(line.message))).toEqual([])
      expect(isRunning(meili!)).toBe(false)
    },
    SLOW
  )

  it(
    "makes an existing DATA_DIR private on start, with a log line",
    async () => {
      const dataDir = newDataDir()
      chmodSync(dataDir, 0o755)
      writeFileSync(join(dataDir, "notes.log"), "from an older version", { mode: 0o644 })
      chmodSync(join(dataDir, "notes.log"), 0o644)
      const service = await launch(dataDir)
      await service.healthy()
      expect(service.output()).toContain("DATA_DIR was readable by other users: made it private")
      expect(statSync(dataDir).mode & 0o777).toBe(0o700)
      expect(statSync(join(dataDir, "notes.log")).mode & 0o777).toBe(0o600)
      expect(statSync(join(dataDir, "catalog.duckdb")).mode & 0o777).toBe(0o600)
      service.child.kill("SIGTERM")
      await service.exit()
    },
    SLOW
  )

  it(
    "`npm start` stops cleanly when npm gets the SIGTERM: node logs the shutdown, exits, and no Meilisearch remains",
    async () => {
      const dataDir = newDataDir()
      const npm = await launch(dataDir, ["npm", "start"])
      await npm.healthy()
      const node = servicePid(dataDir)
      expect(node).not.toBe(npm.child.pid)
      npm.child.kill("SIGTERM")
      await npm.exit()
      await until("node main.ts to exit", () => !isRunning(node), 20_000)
      const lines = npm
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line))
      const begin = lines.find((line) => line.message === "shutdown started")
      const finished = lines.find((line) => line.message === "shutdown finished")
      expect(begin?.annotations).toMatchObject({ signal: "SIGTERM", runsInFlight: [] })
      expect(finished?.annotations).toMatchObject({ clicksWritten: 0, runsInterrupted: [], tookMs: expect.any(Number) })
      expect(lines.at(-1)?.message).toBe("shutdown finished")
      expect(meiliProcessesOn(meiliDir(dataDir))).toEqual([])
    },
    SLOW
  )
})
