import { Effect } from "effect"
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import { findProcesses, isRunning, processArgs, processStartTime } from "./ProcessInfo.ts"

// `meilisearch.pid` in the embedded server's folder names the child serving
// it, so a start can find a Meilisearch left behind by a previous run (a
// SIGKILL without setpriv, a crash in between) and stop it before starting
// its own: two servers on one data.ms would both write to it.

const PID_FILE = "meilisearch.pid"

export const meiliDbPath = (dataDir: string) => join(dataDir, "data.ms")

export const writeMeiliPidFile = (dataDir: string, pid: number) =>
  writeFileSync(
    join(dataDir, PID_FILE),
    JSON.stringify({ pid, started: processStartTime(pid), dbPath: meiliDbPath(dataDir) }),
    {
      mode: 0o600
    }
  )

export const removeMeiliPidFile = (dataDir: string) => rmSync(join(dataDir, PID_FILE), { force: true })

/** True when `args` is a Meilisearch serving `dbPath` (checked on the command line, not trusted from a file). */
export const servesDbPath = (args: ReadonlyArray<string>, dbPath: string) => {
  const flag = args.indexOf("--db-path")
  return flag >= 0 && args[flag + 1] === dbPath && args.some((arg) => basename(arg).includes("meilisearch"))
}

/** Every running Meilisearch on this folder's data.ms (Linux /proc). */
export const meiliProcessesOn = (dataDir: string): Array<number> =>
  findProcesses((args) => servesDbPath(args, meiliDbPath(dataDir))).filter(isRunning)

const recordedPid = (dataDir: string): number | undefined => {
  try {
    const pid = JSON.parse(readFileSync(join(dataDir, PID_FILE), "utf8"))?.pid
    return typeof pid === "number" ? pid : undefined
  } catch {
    return undefined
  }
}

// A process that ended meanwhile, or belongs to another user, is not ours to signal.
const signal = (pid: number, name: NodeJS.Signals) => {
  try {
    process.kill(pid, name)
  } catch {
    // gone, or not permitted
  }
}

const waitGone = (pid: number, ms: number) =>
  Effect.gen(function* () {
    const deadline = Date.now() + ms
    while (isRunning(pid) && Date.now() < deadline) yield* Effect.sleep("50 millis")
    return !isRunning(pid)
  })

/**
 * Stops any Meilisearch still serving `dataDir` (SIGTERM, SIGKILL after 5 s).
 * Call it only while holding the DATA_DIR lock: then such a process can only
 * be a leftover. The pid file is where we look first; a /proc scan catches one
 * whose file was lost. A pid is signalled only after /proc/<pid>/cmdline
 * shows a Meilisearch on this very data.ms (pids get reused).
 */
export const stopStaleMeili = (dataDir: string) =>
  Effect.gen(function* () {
    const dbPath = meiliDbPath(dataDir)
    const recorded = recordedPid(dataDir)
    const pids = new Set([...(recorded === undefined ? [] : [recorded]), ...meiliProcessesOn(dataDir)])
    for (const pid of pids) {
      if (pid === process.pid || !isRunning(pid) || !servesDbPath(processArgs(pid), dbPath)) continue
      yield* Effect.logWarning("a Meilisearch left by a previous run still serves this DATA_DIR: stopping it").pipe(
        Effect.annotateLogs({ pid, dbPath, foundVia: pid === recorded ? "pid file" : "process scan" })
      )
      signal(pid, "SIGTERM")
      if (!(yield* waitGone(pid, 5_000))) {
        signal(pid, "SIGKILL")
        yield* waitGone(pid, 5_000)
      }
    }
    removeMeiliPidFile(dataDir)
  })
