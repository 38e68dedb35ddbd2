import { Effect, Layer, Schema } from "effect"
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { AppConfig } from "./AppConfig.ts"
import { isRunning, processStartTime } from "./ProcessInfo.ts"

// DATA_DIR holds partners' e-mail addresses, API-key hashes and visitor
// hashes: only the service's user may read it. And it belongs to one service
// process at a time: DuckDB takes one writer, and the embedded Meilisearch's
// data folder must not be opened twice.

export class DataDirError extends Schema.TaggedError<DataDirError>()("DataDirError", {
  message: Schema.String
}) {}

/**
 * Files created from now on by this process (DuckDB, its WAL, journals, the
 * Meilisearch child, which inherits it) get mode 0600 and folders 0700,
 * whoever writes them.
 */
export const PRIVATE_UMASK = 0o077

/** Removes group/other bits below `dir`; returns how many entries were loosened before. */
const tighten = (dir: string): number => {
  let changed = 0
  const visit = (path: string) => {
    const stat = lstatSync(path)
    if (stat.isSymbolicLink()) return
    if ((stat.mode & 0o077) !== 0) {
      chmodSync(path, stat.mode & 0o700)
      changed++
    }
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name))
  }
  visit(dir)
  return changed
}

/** Creates DATA_DIR 0700 (or tightens an existing one, saying so) and sets the private umask. */
export const makePrivate = (dir: string) =>
  Effect.gen(function* () {
    process.umask(PRIVATE_UMASK)
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const loosened = tighten(dir)
    if (loosened > 0) {
      yield* Effect.logWarning("DATA_DIR was readable by other users: made it private (folders 0700, files 0600)").pipe(
        Effect.annotateLogs({ dataDir: dir, entriesChanged: loosened })
      )
    }
  })

interface LockOwner {
  readonly pid: number
  readonly started: string | undefined
}

const LOCK_FILE = "service.pid"

const readOwner = (path: string): LockOwner | undefined => {
  try {
    const owner = JSON.parse(readFileSync(path, "utf8"))
    return typeof owner?.pid === "number" ? { pid: owner.pid, started: owner.started } : undefined
  } catch {
    return undefined
  }
}

// Alive means: the same pid, started at the same time (not a reused pid).
const isAlive = (owner: LockOwner) =>
  owner.started === undefined ? isRunning(owner.pid) : processStartTime(owner.pid) === owner.started

/**
 * Takes DATA_DIR for this process (`service.pid`, released with the scope). A
 * live owner makes this fail at once with what to do; a dead one's file
 * (a SIGKILL, a crash) is replaced, with a log line.
 */
export const lockDataDir = (dir: string) =>
  Effect.acquireRelease(
    Effect.gen(function* () {
      const path = join(dir, LOCK_FILE)
      const me: LockOwner = { pid: process.pid, started: processStartTime(process.pid) }
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          writeFileSync(path, JSON.stringify({ ...me, at: new Date().toISOString() }), { flag: "wx", mode: 0o600 })
          return path
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
            return yield* new DataDirError({ message: `cannot write ${path}: ${(error as Error).message}` })
          }
        }
        const owner = readOwner(path)
        if (owner !== undefined && isAlive(owner)) {
          return yield* new DataDirError({
            message:
              `DATA_DIR ${dir} is in use by another service process (pid ${owner.pid}). ` +
              `Stop that one first (kill -TERM ${owner.pid}), or start this one with another DATA_DIR (and PORT).`
          })
        }
        yield* Effect.logWarning(
          "DATA_DIR lock left by a process that is gone (killed or crashed): taking it over"
        ).pipe(Effect.annotateLogs({ lockFile: path, previousPid: owner?.pid ?? null }))
        unlinkSync(path)
      }
      return yield* new DataDirError({ message: `another process took ${path} while this one started; retry` })
    }),
    (path) =>
      Effect.sync(() => {
        // Only our own file: never remove a lock another process took over.
        if (readOwner(path)?.pid === process.pid) unlinkSync(path)
      })
  )

/**
 * DATA_DIR made private and locked for this process. Build it before anything
 * writes there (DuckDB, Meilisearch), so every file inherits the private modes.
 */
export const DataDirLayer = Layer.effectDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    yield* makePrivate(config.dataDir)
    yield* lockDataDir(config.dataDir)
  })
)
