import { Effect, Layer } from "effect"
import { PipelineError } from "../../../pipelines/errors.ts"
import type { FeedKind } from "../../../pipelines/FeedConfig.ts"
import { FeedLoaders } from "../../../pipelines/FeedLoaders.ts"
import { LinkReresolver } from "./LinkReresolver.ts"

// Every successful load of a networks or programmes feed is followed, within
// the run, by link re-resolution (LinkReresolver). A failure fails the run:
// its catalog rows are committed, but feed_state does not advance, so the
// next run loads the feed again and re-resolves (as with a failed search sync).
// Server only: the operator CLI's in-process mode has no link services; its
// loads are caught by the server's next run of the feed.
const KINDS: ReadonlyArray<FeedKind> = ["networks", "programs"]

export const ReresolveAfterCatalogLoads = Layer.effectDiscard(
  Effect.gen(function*() {
    const loaders = yield* FeedLoaders
    const reresolver = yield* LinkReresolver
    for (const kind of KINDS) {
      const base = loaders.get(kind)
      if (base === undefined) continue
      loaders.register({
        kind,
        load: (input) =>
          base.load(input).pipe(
            Effect.tap(() =>
              reresolver.run.pipe(
                Effect.tap((summary) =>
                  Effect.logInfo("links re-resolved after a catalog load").pipe(
                    Effect.annotateLogs({ event: "links_reresolved", feed: input.feed.name, runId: input.runId, ...summary })
                  )
                ),
                Effect.mapError((error) =>
                  new PipelineError({ feed: input.feed.name, stage: "load", message: `links not re-resolved: ${error.message}` })
                )
              )
            )
          )
      })
    }
  })
)
