import { Duration, Effect, Fiber, Schema, Scope } from "effect"
import type { MetricsShape } from "./Metrics.ts"
import { removeMeiliPidFile, stopStaleMeili } from "./MeiliPidFile.ts"
import {
  spawnMeiliOnFreePort,
  type MeiliOptions,
  MeiliServerError,
  resolveMeiliBinary,
  type RunningMeili,
  spawnMeili,
  stopChild
} from "./MeiliServer.ts"

// The embedded Meilisearch, kept alive: when the child exits (killed, out of
// memory, a crash) we log how it ended and start it again on the same port
// with the same master key, so the search client needs no change, with
// exponential backoff (0.5 s doubling, at most 30 s). /ready turns 200 again
// by itself once it answers; searches meanwhile fail fast with 503.

export const MeiliState = Schema.Literals(["running", "restarting", "stopped"])
export type MeiliState = typeof MeiliState.Type

export interface SupervisedMeili {
  readonly url: string
  readonly masterKey: string
  state(): MeiliState
  /** The child's pid while one runs. */
  pid(): number | undefined
}

const FIRST_DELAY_MS = 500
const MAX_DELAY_MS = 30_000
/** A child that ran this long before exiting starts the backoff from the beginning again. */
const STABLE_MS = 60_000

export const restartDelayMs = (attempt: number) => Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** attempt)

const waitExit = (running: RunningMeili) =>
  Effect.callback<{ code: number | null; signal: string | null }>((resume) => {
    const child = running.process
    const done = () => resume(Effect.succeed({ code: child.exitCode, signal: child.signalCode }))
    if (child.exitCode !== null || child.signalCode !== null) return done()
    child.once("exit", done)
    return Effect.sync(() => child.off("exit", done))
  })

// Meilisearch colours its log lines even into a pipe; the log wants plain text.
const lastLines = (text: string, count: number) =>
  text
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n")
    .slice(-count)
    .join("\n")

export const superviseMeili = (options: MeiliOptions & { readonly metrics: MetricsShape }) =>
  Effect.gen(function* () {
    const binary = yield* resolveMeiliBinary(options.binary)
    yield* stopStaleMeili(options.dataDir)
    const first = yield* spawnMeiliOnFreePort({ ...options, binary })
    const port = first.port
    const launch = spawnMeili({ ...options, binary, port })

    let current = first.running
    let state: MeiliState = "running"
    let startedAt = Date.now()
    // Consecutive restarts without a stable run in between: the backoff's exponent.
    let unstable = 0
    const restarts = options.metrics.counter(
      "meilisearch_restarts_total",
      "Restarts of the embedded Meilisearch after it exited"
    )
    for (const name of MeiliState.literals) {
      options.metrics.gauge(
        "meilisearch_child_state",
        "Embedded Meilisearch: 1 for its current state",
        () => Number(state === name),
        {
          state: name
        }
      )
    }

    const restartAfterExit = Effect.gen(function* () {
      const ended = yield* waitExit(current)
      state = "restarting"
      yield* Effect.logError("embedded Meilisearch exited").pipe(
        Effect.annotateLogs({
          pid: current.process.pid,
          code: ended.code,
          signal: ended.signal,
          ranMs: Date.now() - startedAt,
          stderr: lastLines(current.stderrTail(), 10)
        })
      )
      const downSince = Date.now()
      if (downSince - startedAt >= STABLE_MS) unstable = 0
      for (;;) {
        const attempt = unstable++
        const delay = restartDelayMs(attempt)
        yield* Effect.logWarning("restarting embedded Meilisearch").pipe(
          Effect.annotateLogs({ attempt: attempt + 1, inMs: delay, port })
        )
        yield* Effect.sleep(Duration.millis(delay))
        restarts.inc()
        const restarted = yield* Effect.result(launch)
        if (restarted._tag === "Success") {
          current = restarted.success
          break
        }
        yield* Effect.logError("embedded Meilisearch restart failed").pipe(
          Effect.annotateLogs({ attempt: attempt + 1, reason: restarted.failure.message })
        )
      }
      state = "running"
      startedAt = Date.now()
      yield* Effect.logInfo("embedded Meilisearch restarted").pipe(
        Effect.annotateLogs({ pid: current.process.pid, url: current.url, downMs: Date.now() - downSince })
      )
    })
    const supervisor = yield* Effect.forkDetach(Effect.forever(restartAfterExit))

    // Stop supervising first, then the child, whatever it is by then.
    yield* Effect.addFinalizer(() =>
      Effect.gen(function* () {
        yield* Fiber.interrupt(supervisor)
        state = "stopped"
        yield* stopChild(current.process)
        removeMeiliPidFile(options.dataDir)
      })
    )
    return {
      url: current.url,
      masterKey: options.masterKey,
      state: () => state,
      pid: () => (state === "running" ? current.process.pid : undefined)
    } satisfies SupervisedMeili
  }) satisfies Effect.Effect<SupervisedMeili, MeiliServerError, Scope.Scope>
