import { Context, Deferred, Effect, Layer, Semaphore } from "effect"
import { Worker } from "node:worker_threads"
import { AppConfig } from "../infra/AppConfig.ts"
import { Metrics } from "../infra/Metrics.ts"
import { replayJournal } from "./ClickJournal.ts"
import { journalDir, type Segment } from "./segmentFiles.ts"
import { ClickPage } from "./ClickPage.ts"
import { ClickStorage } from "./ClickStorage.ts"
import { SALT_REFRESH } from "./sharedSalts.ts"
import type { FromWorker, ToWorker, WorkerStart } from "./workerMessages.ts"
import { type JournalFailureLine, makeJournalFailures } from "./journalFailures.ts"
import { type LateFound, makeJournalLag } from "./journalLag.ts"
import { superviseWorker } from "./workerSupervisor.ts"

// Clicks leave the redirect as raw facts appended to a page of bytes (no
// hashing, no verdicts, no objects on the request path). Every COMMIT_MS the
// page goes to the click worker thread, which hashes, judges and journals
// the clicks with one fdatasync per group (ClickJournal), then seals a
// segment every ~100 ms; one background fiber inserts sealed segments into
// the database (DuckDB: read_json; PostgreSQL: COPY, uniques decided there,
// see PostgresJournalStore). So a click answered more than CRASH_WINDOW_MS before the process
// is killed is on disk and is stored on the next start (replay), and nothing
// here ever blocks the event loop on a disk write or a batch encoding.
//
// CLICK_QUEUE_SIZE bounds the clicks held in memory (accepted, not yet
// journaled); past it a click is dropped, counted (clicks_dropped_total) and
// logged at most once per writer cycle: never silently. A backlog for DuckDB
// waits on disk, in the journal. SIGTERM drains everything (finalizer).
// 25 ms (was 10): each group commit costs the worker a write and an
// fdatasync (~130-230 µs of CPU measured, whatever the group's size), so 40
// commits a second instead of 100 save ~0.2 µs a click at our peak rate, and
// a click still reaches the disk well inside CRASH_WINDOW_MS.
export const COMMIT_MS = 25
/** Clicks answered longer ago than this before a SIGKILL are stored (journal committed). */
export const CRASH_WINDOW_MS = 250
const IDLE_MS = 100
// Every apply costs DuckDB a fixed few ms of CPU (the statement, applied_seq,
// the COMMIT) on top of ~0.8 µs a click: measured with bench:click-cost and
// a 64MB checkpoint threshold (infra/DuckDbDatabase.ts), 2.31 µs a click in applies
// of 2,125 clicks, 1.01 at 8,500, 0.85 at 25,500. So a busy service (an apply
// of BUSY_CLICKS or more) rests at least BUSY_REST_MS and stores ~a quarter
// of a second of clicks at once; a quiet one still applies every IDLE_MS.
// Longer rests cost less CPU per click but make each apply a longer burst on
// the core the event loop shares: at half our redirect peak, p99 per trial
// was 12.2/12.5/7.5 ms with 1 s rests and 7.3/4.0/2.7, 8.6/3.2/10.1 ms with
// 250 ms (bench:redirect, quiet machine, noisy from run to run). Past that,
// the writer rests APPLY_REST times as long as its last apply took, so DuckDB
// spends at most ~1/(1 + APPLY_REST) of the time applying. The journal holds
// the backlog on disk meanwhile: the crash guarantee does not depend on this
// cadence, only how soon clicks show in statistics (well within a second).
// On PostgreSQL a batch is parsed and encoded on the event loop (~3 µs a
// click), so there a busy service keeps the 100 ms cadence.
const BUSY_CLICKS = 1_000
const BUSY_REST_MS = 250
const APPLY_REST = 9
const MAX_REST_MS = 2_000
/** How long the writer rests after an apply of `clicks` clicks that took `applyMs`. */
export const restAfterApply = (applyMs: number, clicks: number, busyRestMs = BUSY_REST_MS) =>
  Math.min(MAX_REST_MS, Math.max(clicks >= BUSY_CLICKS ? busyRestMs : IDLE_MS, applyMs * APPLY_REST))

/**
 * The click worker's young generation (MB). What a click leaves on its heap
 * dies within its group commit; by default V8 grew the young generation while
 * a 1M feed loaded until the worker's heap was 63-69 MB committed with
 * 26-31 MB used, in the service's RSS at the moment it peaked.
 */
export const CLICK_WORKER_YOUNG_GENERATION_MB = 16

/** The click worker's thread name (at most 15 characters: Linux truncates a thread's name past them). */
export const CLICK_WORKER_NAME = "click-worker"

export interface ClickRecorderShape {
  /** Appends a click's raw facts; synchronous and allocation-free, for the redirect. */
  record(
    trackingId: string,
    partnerId: number | null,
    tag: string,
    ip: string,
    userAgent: string | undefined,
    referrer: string | undefined
  ): void
  /** Stores everything recorded so far in the database (tests, shutdown). */
  readonly flush: Effect.Effect<void>
  /** Clicks accepted but not yet in the database. */
  readonly depth: () => number
}

interface Sealed extends Segment {
  readonly rows: number
}

export class ClickRecorder extends Context.Service<ClickRecorder, ClickRecorderShape>()("app/clicks/ClickRecorder") {
  static readonly layer = Layer.effect(
    ClickRecorder,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const storage = yield* ClickStorage
      const metrics = yield* Metrics
      const capacity = config.clickQueueSize
      const dir = journalDir(config.dataDir)

      const written = metrics.counter("clicks_written_total", "Clicks written to the database")
      const received = metrics.counter("clicks_received_total", "Clicks accepted into the queue")
      const dropped = metrics.counter("clicks_dropped_total", "Clicks dropped because the queue was full")
      const failures = metrics.counter("click_flush_failures_total", "Failed click batch writes (retried)")
      const journalFailures = metrics.counter("click_journal_failures_total", "Failed journal writes (retried)")
      const replayed = metrics.counter("clicks_replayed_total", "Clicks stored from the journal at start-up")
      const flushSeconds = metrics.counter("click_flush_seconds_total", "Time spent writing click batches")
      const flushes = metrics.counter("click_flushes_total", "Click batches written")
      let lastFlushMs = 0
      let lastFlushRows = 0
      let accepted = 0
      let journaled = 0
      let stored = 0
      let droppedSinceLog = 0
      metrics.gauge("click_queue_depth", "Clicks in memory, not yet journaled", () => accepted - journaled)
      metrics.gauge(
        "click_journal_backlog",
        "Journaled clicks not yet written to the database",
        () => journaled - stored
      )
      metrics.gauge("click_queue_capacity", "Click queue capacity", () => capacity)
      metrics.gauge("click_flush_last_seconds", "Duration of the last click batch write", () => lastFlushMs / 1000)

      // One process that owns its store lets the worker's in-memory window
      // decide uniques; replicas sharing one need the store to decide them,
      // and one visitor-hash salt (ClickStorage.ts).
      const store = storage.journal
      const sharedSalts = storage.sharedSalts
      let salts = sharedSalts === undefined ? [] : yield* sharedSalts
      const busyRest = storage.restWhenBusy ? BUSY_REST_MS : IDLE_MS

      let page = new ClickPage()
      let pageFirstAt = 0
      const { lastSeq, clicks: replayedClicks } = yield* replayJournal(store, dir)
      replayed.inc(replayedClicks)

      // ---- the worker ----------------------------------------------------------
      // Should the worker die (a defect), the clicks it held in memory are
      // counted as lost (clicks_lost_total, logged) and a new worker carries
      // on, appending to the segment the old one left open (not to one it
      // sealed: the restart waits for its last messages, workerSupervisor.ts).
      const runFork = Effect.runForkWith(yield* Effect.context<never>())
      const lostClicks = metrics.counter(
        "clicks_lost_total",
        "Clicks lost with a failed click worker (not yet journaled)"
      )
      const sealed: Array<Sealed> = []
      // Whether the crash bound holds: each page's oldest click against the moment it was journaled (journalLag.ts).
      const lag = makeJournalLag(CRASH_WINDOW_MS)
      const lateClicks = metrics.counter(
        "clicks_journaled_late_total",
        `Clicks journaled more than ${CRASH_WINDOW_MS} ms (the crash bound) after they were answered`
      )
      let lastLagMs = 0
      metrics.gauge(
        "click_journal_lag_seconds",
        "Longest wait, from answer to journal, of the clicks journaled last",
        () => lastLagMs / 1000
      )
      // An episode's lines (journalLag.ts): the oldest late click's answer time says which clicks are on disk.
      const counted = (found: LateFound) => {
        if (found.late === 0) return
        lateClicks.inc(found.late)
        if (found.opened === undefined) return
        runFork(
          Effect.logWarning(
            "click journal fell behind the crash bound: clicks answered are not on disk within it"
          ).pipe(
            Effect.annotateLogs({
              late: found.opened.late,
              waitedMs: found.opened.longestMs,
              boundMs: CRASH_WINDOW_MS,
              oldestLateAnsweredAt: new Date(found.opened.since).toISOString()
            })
          )
        )
      }
      const settled = (now: number) => {
        const episode = lag.settle(now)
        if (episode === undefined) return
        runFork(
          Effect.logWarning("click journal caught up with the crash bound").pipe(
            Effect.annotateLogs({
              late: episode.late,
              longestWaitMs: episode.longestMs,
              boundMs: CRASH_WINDOW_MS,
              oldestLateAnsweredAt: new Date(episode.since).toISOString()
            })
          )
        )
      }
      const journalEpisodes = makeJournalFailures()
      const logFailures = (line: JournalFailureLine | undefined) => {
        if (line === undefined) return
        const log = line.level === "error" ? Effect.logError(line.message) : Effect.logInfo(line.message)
        runFork(log.pipe(Effect.annotateLogs(line.annotations)))
      }
      const freePages: Array<ClickPage> = []
      const flushWaiters = new Map<number, Deferred.Deferred<void>>()
      let flushIds = 0
      let nextSeq = lastSeq + 1
      const ready = yield* Deferred.make<void>()
      const onMessage = (message: FromWorker) => {
        switch (message.kind) {
          case "ready":
            Deferred.doneUnsafe(ready, Effect.void)
            break
          case "journaled": {
            journaled += message.clicks
            const now = Date.now()
            logFailures(journalEpisodes.succeeded(now))
            const found = lag.journaled(message.pages.length, now)
            lastLagMs = found.longestMs
            counted(found)
            for (const bytes of message.pages) freePages.push(new ClickPage(Buffer.from(bytes)))
            break
          }
          case "sealed":
            sealed.push(message)
            nextSeq = message.seq + 1
            break
          case "flushed": {
            const waiter = flushWaiters.get(message.id)
            flushWaiters.delete(message.id)
            if (waiter !== undefined) Deferred.doneUnsafe(waiter, Effect.void)
            break
          }
          case "journalError":
            journalFailures.inc()
            logFailures(journalEpisodes.failed(Date.now(), message.message))
        }
      }
      const workers = superviseWorker<FromWorker>(
        () =>
          new Worker(new URL("./clickWorker.ts", import.meta.url), {
            // its thread's name: in /proc, on /metrics (MemoryGauges.ts)
            name: CLICK_WORKER_NAME,
            // nextSeq as the dead worker's messages left it: a restart comes after all of them (workerSupervisor.ts)
            workerData: {
              dir,
              firstSeq: nextSeq,
              uniqueInMemory: storage.uniquesInMemory,
              salts
            } satisfies WorkerStart,
            resourceLimits: { maxYoungGenerationSizeMb: CLICK_WORKER_YOUNG_GENERATION_MB }
          }),
        onMessage,
        (error) => {
          const lost = accepted - journaled - page.count
          lostClicks.inc(lost)
          journaled += lost
          lag.forget()
          runFork(Effect.logError("click worker failed; restarting it", { error: String(error), lost }))
          for (const waiter of flushWaiters.values()) Deferred.doneUnsafe(waiter, Effect.void)
          flushWaiters.clear()
        }
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => workers.stop()))
      yield* Deferred.await(ready)

      // ---- the request path ----------------------------------------------------
      const handOff = () => {
        if (page.count === 0) return
        const full = page
        lag.handedOff(pageFirstAt, full.count)
        page = freePages.pop() ?? new ClickPage()
        const message: ToWorker = {
          kind: "page",
          bytes: full.bytes.buffer as ArrayBuffer,
          used: full.used,
          count: full.count
        }
        workers.current().postMessage(message, [message.bytes])
      }
      const record: ClickRecorderShape["record"] = (trackingId, partnerId, tag, ip, userAgent, referrer) => {
        if (accepted - journaled >= capacity) {
          dropped.inc()
          droppedSinceLog++
          return
        }
        if (!page.hasRoom) handOff()
        // plain Date.now(): the redirect hot path runs no Effect per click (Clock would need a fiber)
        const now = Date.now()
        if (page.count === 0) pageFirstAt = now
        page.append(now, partnerId, trackingId, tag, ip, userAgent, referrer)
        accepted++
        received.inc()
      }
      const timer = setInterval(() => {
        handOff()
        const now = Date.now()
        counted(lag.overdue(now))
        settled(now)
      }, COMMIT_MS)
      timer.unref()

      // ---- DuckDB writer ---------------------------------------------------------
      // One insert at a time (the permit), so `flush` can wait for one the
      // writer fiber has started. A failed insert leaves the segments queued.
      const writing = yield* Semaphore.make(1)
      const insertSealed = writing.withPermits(1)(
        Effect.gen(function* () {
          if (sealed.length === 0) return false
          const batch = sealed.slice()
          const started = performance.now()
          const exit = yield* Effect.exit(store.store(batch))
          if (exit._tag === "Failure") {
            failures.inc()
            yield* Effect.logError("click batch write failed; will retry", exit.cause)
            return false
          }
          sealed.splice(0, batch.length)
          workers.current().postMessage({ kind: "stored", paths: batch.map((s) => s.path) } satisfies ToWorker)
          const rows = batch.reduce((n, s) => n + s.rows, 0)
          lastFlushMs = performance.now() - started
          lastFlushRows = rows
          flushSeconds.inc(lastFlushMs / 1000)
          flushes.inc()
          written.inc(rows)
          stored += rows
          return true
        })
      )

      const workerFlush = Effect.gen(function* () {
        handOff()
        const done = yield* Deferred.make<void>()
        const id = ++flushIds
        flushWaiters.set(id, done)
        workers.current().postMessage({ kind: "flush", id } satisfies ToWorker)
        yield* Deferred.await(done)
      })

      const flushAll = Effect.gen(function* () {
        yield* workerFlush
        while (sealed.length > 0) {
          if (!(yield* Effect.uninterruptible(insertSealed))) yield* Effect.sleep("200 millis")
        }
        // Wait for an insert the writer fiber may still be committing.
        yield* writing.withPermits(1)(Effect.void)
      })

      // Drain on shutdown: registered after the worker's terminate finalizer
      // (finalizers run in reverse), so the worker is still there to drain.
      yield* Effect.addFinalizer(() =>
        Effect.gen(function* () {
          clearInterval(timer)
          const pending = accepted - stored
          yield* flushAll.pipe(Effect.timeout("30 seconds"), Effect.ignore)
          if (accepted > stored) {
            yield* Effect.logError(
              "click queue not fully drained at shutdown (the journal keeps them for the next start)",
              {
                pending: accepted - stored
              }
            )
          } else if (pending > 0) {
            yield* Effect.logInfo("click queue drained at shutdown", { written: pending })
          }
        })
      )

      yield* Effect.forkScoped(
        Effect.forever(
          Effect.gen(function* () {
            if (droppedSinceLog > 0) {
              const count = droppedSinceLog
              droppedSinceLog = 0
              yield* Effect.logWarning("click queue full: clicks were dropped", {
                dropped: count,
                capacity,
                dropped_total: dropped.value
              })
            }
            const applied = yield* Effect.uninterruptible(insertSealed)
            yield* Effect.sleep(applied ? restAfterApply(lastFlushMs, lastFlushRows, busyRest) : IDLE_MS)
          })
        )
      )

      // Tomorrow's salt is fetched hours before midnight; a failed refresh keeps the known ones.
      if (sharedSalts !== undefined) {
        yield* Effect.forkScoped(
          Effect.forever(
            Effect.gen(function* () {
              yield* Effect.sleep(SALT_REFRESH)
              salts = yield* sharedSalts
              workers.current().postMessage({ kind: "salts", salts } satisfies ToWorker)
            }).pipe(Effect.catchCause((cause) => Effect.logError("click salt refresh failed; will retry", cause)))
          )
        )
      }

      return ClickRecorder.of({ record, flush: flushAll, depth: () => accepted - stored })
    })
  )
}
