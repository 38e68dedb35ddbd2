import { Effect, Layer } from "effect"
import { CatalogEvents, FollowUpFailed } from "../infra/events/CatalogEvents.ts"
import { LinkReresolver } from "./LinkReresolver.ts"

// Every committed load of a networks or programmes feed is followed, within
// the run, by link re-resolution (LinkReresolver). A failure fails the run:
// its catalog rows are committed, but feed_state does not advance, so the
// next run loads the feed again and re-resolves (as with a failed search sync).
// Only where feeds run (the WorkerLock holder): a change seen through the
// shared version was re-resolved by the process that loaded it. The operator
// CLI's in-process mode has no link services, so the server also makes one
// pass when it starts.
const KINDS: ReadonlySet<string> = new Set(["networks", "programs"])

export const ReresolveAfterCatalogLoads = Layer.effectDiscard(
  Effect.gen(function* () {
    const events = yield* CatalogEvents
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
    yield* events.subscribe("link re-resolution", ({ change }) =>
      change._tag === "Loaded" && KINDS.has(change.kind)
        ? logged({ trigger: "feed", feed: change.feed, runId: change.runId }).pipe(
            Effect.asVoid,
            Effect.mapError(
              (error) => new FollowUpFailed({ stage: "load", message: `links not re-resolved: ${error.message}` })
            )
          )
        : Effect.void
    )
  })
)
