import { Effect, Option } from "effect"
import type { DatabaseError, DatabaseShape } from "../infra/Database.ts"
import { readCatalogVersion } from "../infra/CatalogVersion.ts"
import { type CatalogEventsShape, failuresOf } from "../infra/events/CatalogEvents.ts"
import type { FeedDefinition } from "./FeedConfig.ts"
import type { RunSummary } from "./PipelineRunner.ts"

// Running every feed (start-up, an ingest of all feeds) in stages instead of
// one after another: a feed waits only for the kinds its load reads.
// Programmes name their network; products, prices and conversions are matched
// to programmes (and links); nothing reads what a feed of its own stage
// loads, so those run side by side (DuckDB's writes still take turns; the
// fetching, parsing and waiting overlap).

const STAGE_OF_KIND: Readonly<Record<string, number>> = { networks: 0, programs: 1 }
const LAST_STAGE = 2

/** The feeds grouped by stage, in order; within a stage, in the order given. */
export const stagesOf = (feeds: ReadonlyArray<FeedDefinition>): ReadonlyArray<ReadonlyArray<FeedDefinition>> => {
  const stages: Array<Array<FeedDefinition>> = Array.from({ length: LAST_STAGE + 1 }, () => [])
  for (const feed of feeds) stages[STAGE_OF_KIND[feed.kind] ?? LAST_STAGE]!.push(feed)
  return stages.filter((stage) => stage.length > 0)
}

/** Runs `run` for every feed, stage after stage; the results in the feeds' order (runs `run` left out are not listed). */
export const runInStages = <A, R>(
  feeds: ReadonlyArray<FeedDefinition>,
  run: (feed: FeedDefinition) => Effect.Effect<Option.Option<A>, never, R>
): Effect.Effect<ReadonlyArray<A>, never, R> =>
  Effect.gen(function* () {
    const results = new Map<FeedDefinition, A>()
    for (const stage of stagesOf(feeds)) {
      yield* Effect.forEach(
        stage,
        (feed) =>
          Effect.map(run(feed), (result) => {
            if (Option.isSome(result)) results.set(feed, result.value)
          }),
        { concurrency: "unbounded", discard: true }
      )
    }
    return feeds.flatMap((feed) => (results.has(feed) ? [results.get(feed)!] : []))
  })

/**
 * One `BatchLoaded` for the runs of a batch that loaded, once they all ended:
 * the follow-ups that read the whole catalog (the search sync) run once. If
 * one fails, the loads stay committed but those runs are recorded as failed
 * and their feed_state cleared, so the next run of each loads and follows up again.
 */
export const followUpBatch = (
  deps: {
    readonly db: DatabaseShape
    readonly events: CatalogEventsShape
    readonly record: (summary: RunSummary) => Effect.Effect<void, DatabaseError>
  },
  results: ReadonlyArray<RunSummary>
): Effect.Effect<ReadonlyArray<RunSummary>> =>
  Effect.gen(function* () {
    const loaded = results.filter((result) => result.status === "succeeded")
    if (loaded.length === 0) return results
    const began = performance.now()
    let documents = 0
    const failed = yield* readCatalogVersion(deps.db).pipe(
      Effect.flatMap((version) =>
        deps.events.publish({
          change: {
            _tag: "BatchLoaded",
            kinds: [...new Set(loaded.map((result) => result.kind))],
            runIds: loaded.map((result) => result.id)
          },
          version
        })
      ),
      Effect.map((outcomes) => {
        for (const outcome of outcomes)
          if (outcome._tag === "Success") documents += outcome.value.documentsUpserted ?? 0
        return failuresOf(outcomes).map((failure) => `${failure.stage}: ${failure.message}`)
      }),
      Effect.catch((error) => Effect.succeed([`load: ${error.message}`]))
    )
    if (failed.length === 0) {
      yield* Effect.logInfo("feeds run together followed up (search indexes synced)").pipe(
        Effect.annotateLogs({
          event: "batch_synced",
          feeds: loaded.length,
          documentsUpserted: documents,
          ms: Math.round(performance.now() - began)
        })
      )
      return results
    }
    const error = failed.join("; ")
    yield* Effect.logWarning("follow-up of the feeds run together failed; their next runs load again").pipe(
      Effect.annotateLogs({ event: "batch_follow_up_failed", error, feeds: loaded.map((result) => result.feed) })
    )
    return yield* Effect.forEach(results, (result) =>
      result.status !== "succeeded"
        ? Effect.succeed(result)
        : Effect.gen(function* () {
            const marked: RunSummary = { ...result, status: "failed", error }
            yield* deps.record(marked).pipe(Effect.ignore)
            yield* deps.db.run("DELETE FROM feed_state WHERE feed = $1", [result.feed]).pipe(Effect.ignore)
            return marked
          })
    )
  })
