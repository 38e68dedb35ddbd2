import { Deferred, Effect, type Scope } from "effect"
import { DatabaseError } from "../infra/Database.ts"
import type { LinkEventsShape } from "../infra/events/LinkEvents.ts"
import type { RepeatMatchMemo } from "./RepeatMatchMemo.ts"
import type { Created, KeyedNewLink, NewLink, TrackingLinkStore } from "./TrackingLinkStore.ts"

// New links are written by group commit: concurrent requests queue here and
// one fiber inserts everything queued so far in a single transaction, so a
// burst of N new links costs one COMMIT, not N serialised ones.

const BATCH = 500

interface Pending extends KeyedNewLink {
  readonly done: Deferred.Deferred<Created, DatabaseError>
}

export const makeLinkGroupCommit = (deps: {
  readonly store: TrackingLinkStore
  readonly memo: RepeatMatchMemo
  readonly linkEvents: LinkEventsShape
  /** Where the writer fiber runs: the service's scope, so no request's interruption stops it. */
  readonly scope: Scope.Scope
}) => {
  const { store, memo, linkEvents, scope } = deps
  let pending: Array<Pending> = []
  let writing = false

  // A conversion can name a link before the link exists here (made on
  // another replica, restored from a backup): the conversions feature
  // attributes those in its own fiber, so the caller gets the link at once.
  const announceCreated = (results: ReadonlyMap<string, Created>) =>
    linkEvents.publishCreated({
      trackingIds: [...results.values()].flatMap(({ link, created }) => (created ? [link.id] : []))
    })

  const writer: Effect.Effect<void> = Effect.gen(function* () {
    while (pending.length > 0) {
      const batch = pending.slice(0, BATCH)
      pending = pending.slice(batch.length)
      const exit = yield* Effect.exit(store.insertBatch(batch))
      if (exit._tag === "Success") yield* announceCreated(exit.value)
      const firstOfKey = new Set<string>()
      for (const item of batch) {
        if (exit._tag === "Failure") {
          yield* Deferred.failCause(item.done, exit.cause)
          continue
        }
        const result = exit.value.get(item.key)
        if (result === undefined) {
          yield* Deferred.fail(
            item.done,
            new DatabaseError({ message: "tracking link neither found nor inserted", cause: item.key })
          )
          continue
        }
        memo.remember(item.key, result.link)
        // Only the first request for a key created the link; the others see it as existing.
        const created = result.created && !firstOfKey.has(item.key)
        firstOfKey.add(item.key)
        yield* Deferred.succeed(item.done, { link: result.link, created })
      }
    }
    writing = false
  })

  /** Queues `link` under `key` for the next batch; the stored link once that batch committed. */
  const write = (key: string, link: NewLink) =>
    Effect.gen(function* () {
      const done = Deferred.makeUnsafe<Created, DatabaseError>()
      pending.push({ key, link, done })
      if (!writing) {
        writing = true
        yield* Effect.forkIn(Effect.uninterruptible(writer), scope)
      }
      return yield* Deferred.await(done)
    })

  return { write }
}
