import { Effect, Layer } from "effect"
import { PipelineError } from "../pipelines/errors.ts"
import type { FeedKind } from "../pipelines/FeedConfig.ts"
import { FeedLoaders } from "../pipelines/FeedLoaders.ts"
import { LinkReresolver } from "./LinkReresolver.ts"

// Every successful load of a networks or programmes feed is followed, within
// the run, by link re-resolution (LinkReresolver). A failure fails the run:
// its catalog rows are committed, but feed_state does not advance, so the
// next run loads the feed again and re-resolves (as with a failed search sync).
// Server only: the operator CLI's in-process mode (used while no server runs)
// has no link services, so the server also makes one pass when it starts.
const KINDS: ReadonlyArray<FeedKind> = ["networks", "programs"]

export const ReresolveAfterCatalogLoads = Layer.effectDiscard(
  Effect.gen(function* () {
    const loaders = yield* FeedLoaders
    const reresolver = yield* LinkReresolver
    const logged = (trigger: Record<string, string>) =>
      reresolver.run.pipe(
        Effect.tap((summary) =>
          Effect.logInfo("links re-resolved").pipe(
            Effect.annotateLogs({ event: "links_reresolved", ...trigger, ...summary })
          )
        )
      )
    yield* Effect.forkScoped(
      logged({ trigger: "startup" }).pipe(
        Effect.catch((error) => Effect.logWarning("start-up link re-resolution failed", error))
      )
    )
    for (const kind of KINDS) {
      const base = loaders.get(kind)
      if (base === undefined) continue
      loaders.register({
        kind,
        load: (input) =>
          base.load(input).pipe(
            Effect.tap(() =>
              logged({ trigger: "feed", feed: input.feed.name, runId: input.runId }).pipe(
                Effect.mapError(
                  (error) =>
                    new PipelineError({
                      feed: input.feed.name,
                      stage: "load",
                      message: `links not re-resolved: ${error.message}`
                    })
                )
              )
            )
          )
      })
    }
  })
)
