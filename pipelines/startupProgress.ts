import { Effect, Schedule } from "effect"
import type { PipelineRunnerShape, RunSummary } from "./PipelineRunner.ts"

// The first start's ingest, as a person at a terminal sees it: a line per
// feed as it loads (rows so far, rows/s) and one per finished run, on stderr
// and only when stderr is a terminal, so the JSON log on stdout (what
// machines read) stays as it is.

const number = (n: number) => Math.round(n).toLocaleString("en-US")
const perSecond = (rows: number, ms: number) => (ms <= 0 ? "-" : `${number((rows / ms) * 1000)} rows/s`)

export const finishedLine = (run: RunSummary) => {
  const ms = Date.parse(run.finishedAt ?? run.startedAt) - Date.parse(run.startedAt)
  return (
    `  ${run.status === "succeeded" ? "loaded " : `${run.status}:`} ${run.feed.padEnd(28)} ` +
    `${number(run.rowsLoaded).padStart(8)} rows in ${(ms / 1000).toFixed(1)} s (${perSecond(run.rowsLoaded, ms)})`
  )
}

/** Runs `ingest` (every feed, once) with progress lines on a terminal. */
export const withStartupProgress = <E, R>(
  runner: PipelineRunnerShape,
  ingest: Effect.Effect<ReadonlyArray<RunSummary>, E, R>,
  out: NodeJS.WriteStream = process.stderr
): Effect.Effect<ReadonlyArray<RunSummary>, E, R> => {
  if (!out.isTTY) return ingest
  const write = (line: string) => Effect.sync(() => out.write(`${line}\n`))
  const began = Date.now()
  // Each tick names only the runs that read rows since the last, then once that the loads are done.
  const seen = new Map<string, number>()
  let loading = false
  let syncAnnounced = false
  const tick = Effect.suspend(() => {
    const runs = runner.live()
    if (runs.length > 0) loading = true
    if (runs.length === 0 && loading && !syncAnnounced) {
      syncAnnounced = true
      return write("  syncing the search indexes")
    }
    const moved = runs.filter((run) => run.phase === "load" && seen.get(run.runId) !== run.rowsRead)
    for (const run of moved) seen.set(run.runId, run.rowsRead)
    return Effect.forEach(
      moved,
      (run) =>
        write(
          `  loading ${run.feed.padEnd(28)} ${number(run.rowsRead).padStart(8)} rows ` +
            `(${perSecond(run.rowsRead, Date.now() - run.startedAt)})`
        ),
      { discard: true }
    )
  })
  return Effect.gen(function* () {
    yield* write("first start: loading every feed once (the service answers /health now; /ready once loaded)")
    const runs = yield* ingest.pipe(
      Effect.raceFirst(
        Effect.delay(tick, "1 second").pipe(Effect.repeat(Schedule.spaced("1 second")), Effect.andThen(Effect.never))
      )
    )
    for (const run of runs) yield* write(finishedLine(run))
    yield* write(`catalog loaded and searchable in ${((Date.now() - began) / 1000).toFixed(1)} s`)
    return runs
  })
}
