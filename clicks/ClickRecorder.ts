import { DuckDBTimestampTZValue } from "@duckdb/node-api"
import { Context, Effect, Layer } from "effect"
import { botVerdict } from "../domain/clicks/botVerdict.ts"
import { UniqueWindow } from "../domain/clicks/UniqueWindow.ts"
import { VisitorHasher } from "../domain/clicks/VisitorHasher.ts"
import { AppConfig } from "../infra/AppConfig.ts"
import { Database } from "../infra/Database.ts"
import { Metrics } from "../infra/Metrics.ts"

// Clicks leave the redirect through a bounded in-memory queue; one background
// fiber appends them to DuckDB in batches (the Appender), so a redirect never
// waits on a disk write. On shutdown the finalizer drains the queue. When the
// queue is full the click is dropped, counted (clicks_dropped_total) and
// logged at most once per second: never silently.
export interface ClickInput {
  readonly trackingId: string
  readonly partnerId: number | null
  readonly tag: string
  readonly ip: string
  readonly userAgent: string | undefined
  readonly referrer: string | undefined
}

interface QueuedClick {
  readonly atMs: number
  readonly trackingId: string
  readonly partnerId: number | null
  readonly tag: string
  readonly ipHash: string
  readonly userAgent: string | null
  readonly referrer: string | null
  readonly isBot: boolean
  readonly botReason: string | null
  readonly isUnique: boolean
}

const BATCH = 5_000
const IDLE_MS = 100
const MAX_TEXT = 512

const clip = (value: string | undefined) => value === undefined || value === "" ? null : value.slice(0, MAX_TEXT)

export class ClickRecorder extends Context.Service<ClickRecorder, {
  /** Queues a click; synchronous and allocation-light, for the redirect. */
  record(click: ClickInput): void
  /** Writes everything queued so far (tests, shutdown). */
  readonly flush: Effect.Effect<void>
  readonly depth: () => number
}>()("app/clicks/ClickRecorder") {
  static readonly layer = Layer.effect(
    ClickRecorder,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const db = yield* Database
      const metrics = yield* Metrics
      const capacity = config.clickQueueSize
      let queue: Array<QueuedClick> = []
      const hasher = new VisitorHasher()
      const unique = new UniqueWindow()
      const written = metrics.counter("clicks_written_total", "Clicks written to DuckDB")
      const received = metrics.counter("clicks_received_total", "Clicks accepted into the queue")
      const dropped = metrics.counter("clicks_dropped_total", "Clicks dropped because the queue was full")
      const failures = metrics.counter("click_flush_failures_total", "Failed click batch writes (retried)")
      const flushSeconds = metrics.counter("click_flush_seconds_total", "Time spent writing click batches")
      const flushes = metrics.counter("click_flushes_total", "Click batches written")
      let lastFlushMs = 0
      metrics.gauge("click_queue_depth", "Clicks waiting to be written", () => queue.length)
      metrics.gauge("click_queue_capacity", "Click queue capacity", () => capacity)
      metrics.gauge("click_flush_last_seconds", "Duration of the last click batch write", () => lastFlushMs / 1000)
      let droppedSinceLog = 0

      const record = (click: ClickInput) => {
        if (queue.length >= capacity) {
          dropped.inc()
          droppedSinceLog++
          return
        }
        const now = Date.now()
        const ipHash = hasher.hash(click.ip)
        const verdict = botVerdict(click.userAgent)
        // Bots never take a human's unique slot.
        const isUnique = !verdict.isBot && unique.firstIn(`${ipHash} ${click.trackingId}`, now)
        queue.push({
          atMs: now,
          trackingId: click.trackingId,
          partnerId: click.partnerId,
          tag: click.tag,
          ipHash,
          userAgent: clip(click.userAgent),
          referrer: clip(click.referrer),
          isBot: verdict.isBot,
          botReason: verdict.reason,
          isUnique
        })
        received.inc()
      }

      const writeBatch = (batch: ReadonlyArray<QueuedClick>) =>
        db.append("clicks", (appender) => {
          for (const c of batch) {
            appender.appendTimestampTZ(new DuckDBTimestampTZValue(BigInt(c.atMs) * 1000n))
            appender.appendVarchar(c.trackingId)
            if (c.partnerId === null) appender.appendNull()
            else appender.appendInteger(c.partnerId)
            appender.appendVarchar(c.tag)
            appender.appendVarchar(c.ipHash)
            if (c.userAgent === null) appender.appendNull()
            else appender.appendVarchar(c.userAgent)
            if (c.referrer === null) appender.appendNull()
            else appender.appendVarchar(c.referrer)
            appender.appendBoolean(c.isBot)
            if (c.botReason === null) appender.appendNull()
            else appender.appendVarchar(c.botReason)
            appender.appendBoolean(c.isUnique)
            appender.endRow()
          }
        })

      // One batch: on failure the clicks go back to the front of the queue.
      const flushOnce = Effect.gen(function*() {
        if (queue.length === 0) return false
        const batch = queue.length <= BATCH ? queue : queue.slice(0, BATCH)
        queue = queue.length <= BATCH ? [] : queue.slice(BATCH)
        const started = performance.now()
        const exit = yield* Effect.exit(writeBatch(batch))
        if (exit._tag === "Failure") {
          queue = batch.concat(queue)
          failures.inc()
          yield* Effect.logError("click batch write failed; will retry", exit.cause)
          return false
        }
        lastFlushMs = performance.now() - started
        flushSeconds.inc(lastFlushMs / 1000)
        flushes.inc()
        written.inc(batch.length)
        return true
      })

      const flushAll = Effect.gen(function*() {
        while (queue.length > 0) {
          if (!(yield* Effect.uninterruptible(flushOnce))) {
            if (queue.length === 0) return
            yield* Effect.sleep("200 millis")
          }
        }
      })

      // Drain on shutdown: registered before the writer fiber, so it runs after
      // the fiber is interrupted, while the database is still open.
      yield* Effect.addFinalizer(() =>
        Effect.gen(function*() {
          const pending = queue.length
          yield* flushAll.pipe(Effect.timeout("30 seconds"), Effect.ignore)
          if (queue.length > 0) {
            yield* Effect.logError("click queue not fully drained at shutdown", { lost: queue.length })
          } else if (pending > 0) {
            yield* Effect.logInfo("click queue drained at shutdown", { written: pending })
          }
        })
      )

      // The writer. A batch in progress is never interrupted (its clicks have
      // left the queue); drops are logged here, at most once per cycle.
      yield* Effect.forkScoped(
        Effect.forever(
          Effect.gen(function*() {
            if (droppedSinceLog > 0) {
              const count = droppedSinceLog
              droppedSinceLog = 0
              yield* Effect.logWarning("click queue full: clicks were dropped", { dropped: count, capacity, dropped_total: dropped.value })
            }
            const wrote = yield* Effect.uninterruptible(flushOnce)
            if (!wrote || queue.length === 0) yield* Effect.sleep(IDLE_MS)
          })
        )
      )

      return ClickRecorder.of({ record, flush: flushAll, depth: () => queue.length })
    })
  )
}
