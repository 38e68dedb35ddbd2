import { Context, Effect, Layer, Semaphore } from "effect"
import { botVerdict } from "../domain/clicks/botVerdict.ts"
import { UniqueWindow } from "../domain/clicks/UniqueWindow.ts"
import { VisitorHasher } from "../domain/clicks/VisitorHasher.ts"
import { AppConfig } from "../infra/AppConfig.ts"
import { Database } from "../infra/Database.ts"
import { Metrics } from "../infra/Metrics.ts"

// Clicks leave the redirect through a bounded in-memory queue; one background
// fiber writes them to DuckDB in batches (multi-row INSERT), so a redirect never
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

// The batch travels as one JSON parameter holding one array per column
// (columnar: no repeated keys), zipped back into rows by parallel unnests.
const INSERT_BATCH = `INSERT INTO clicks
  SELECT to_timestamp(unnest(j.a) / 1000.0), unnest(j.i), unnest(j.p), unnest(j.t), unnest(j.h),
         unnest(j.u), unnest(j.r), unnest(j.b), unnest(j.w), unnest(j.q)
  FROM (SELECT from_json($1::JSON,
    '{"a":["BIGINT"],"i":["VARCHAR"],"p":["INTEGER"],"t":["VARCHAR"],"h":["VARCHAR"],"u":["VARCHAR"],"r":["VARCHAR"],"b":["BOOLEAN"],"w":["VARCHAR"],"q":["BOOLEAN"]}'
  ) AS j)`

const columns = (batch: ReadonlyArray<QueuedClick>) => {
  const out = { a: [] as Array<number>, i: [] as Array<string>, p: [] as Array<number | null>, t: [] as Array<string>,
    h: [] as Array<string>, u: [] as Array<string | null>, r: [] as Array<string | null>, b: [] as Array<boolean>,
    w: [] as Array<string | null>, q: [] as Array<boolean> }
  for (const c of batch) {
    out.a.push(c.atMs)
    out.i.push(c.trackingId)
    out.p.push(c.partnerId)
    out.t.push(c.tag)
    out.h.push(c.ipHash)
    out.u.push(c.userAgent)
    out.r.push(c.referrer)
    out.b.push(c.isBot)
    out.w.push(c.botReason)
    out.q.push(c.isUnique)
  }
  return JSON.stringify(out)
}

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

      // One multi-row INSERT per batch, the rows passed as a single JSON
      // parameter: DuckDB parses and inserts them on its own thread, so the
      // event loop (answering redirects) is never blocked by the write, as it
      // would be by the Appender's synchronous flush.
      const writeBatch = (batch: ReadonlyArray<QueuedClick>) => db.run(INSERT_BATCH, [columns(batch)])

      // One batch at a time (the permit), so `flush` can wait for a batch the
      // writer fiber has already taken off the queue. On failure the clicks go
      // back to the front of the queue.
      const writing = yield* Semaphore.make(1)
      const flushOnce = writing.withPermits(1)(Effect.gen(function*() {
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
      }))

      const flushAll = Effect.gen(function*() {
        while (queue.length > 0) {
          if (!(yield* Effect.uninterruptible(flushOnce))) {
            if (queue.length === 0) break
            yield* Effect.sleep("200 millis")
          }
        }
        // Wait for a batch the writer fiber may still be committing.
        yield* writing.withPermits(1)(Effect.void)
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
            // Write again at once only to work off a backlog: under steady load
            // this makes one statement per IDLE_MS, not a stream of tiny ones.
            if (!wrote || queue.length < BATCH) yield* Effect.sleep(IDLE_MS)
          })
        )
      )

      return ClickRecorder.of({ record, flush: flushAll, depth: () => queue.length })
    })
  )
}
