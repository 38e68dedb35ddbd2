import { Context, Effect, Layer, PubSub, type Scope } from "effect"

// Links announce what they created; whoever cares subscribes. The
// conversions feature attributes conversions that named a link before it
// existed (made on another replica, restored from a backup): that work runs
// in the subscriber's fiber, so the request that created the link answers
// without waiting on the ledger, and the links feature never imports conversions.

export interface LinkCreated {
  readonly trackingIds: ReadonlyArray<string>
}

export interface LinkEventsShape {
  /** Never waits on a subscriber (the queue is unbounded). */
  publishCreated(event: LinkCreated): Effect.Effect<void>
  /** Runs `handler` for every event published from now until the scope closes, one at a time, in its own fiber. */
  onCreated(handler: (event: LinkCreated) => Effect.Effect<void>): Effect.Effect<void, never, Scope.Scope>
}

export class LinkEvents extends Context.Service<LinkEvents, LinkEventsShape>()("app/infra/LinkEvents") {
  static readonly layer = Layer.effect(
    LinkEvents,
    Effect.gen(function* () {
      const pubsub = yield* PubSub.unbounded<LinkCreated>()
      return LinkEvents.of({
        publishCreated: (event) => (event.trackingIds.length === 0 ? Effect.void : PubSub.publish(pubsub, event)),
        onCreated: (handler) =>
          Effect.gen(function* () {
            const subscription = yield* PubSub.subscribe(pubsub)
            yield* Effect.forkScoped(Effect.forever(Effect.flatMap(PubSub.take(subscription), handler)))
          })
      })
    })
  )
}
