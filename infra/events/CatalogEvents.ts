import { Context, Data, Effect, Exit, Fiber, Layer, PubSub, Queue, type Scope } from "effect"

// "The catalog changed" as one stream. Two publishers: the pipeline runner,
// after a load committed (in the process that ran it), and the catalog
// follower (links/CatalogChanges.ts), when the shared version moved because
// another process changed the catalog or its links. Every cache and follower
// subscribes here instead of being wired into the runner or a poller of its own.
//
// A load's follow-ups (search sync, link re-resolution) are part of the run:
// when one fails, the run fails and feed_state does not advance, so the next
// run loads and follows up again. So `publish` waits for every subscriber's
// outcome and returns them; a subscriber that merely refreshes memory
// answers at once.

/** Where a change came from. */
export type CatalogChange =
  /**
   * A feed run in this process committed its load. `batched`: the run is one
   * of several run together (every feed at start-up, an ingest of all feeds);
   * follow-ups that cost the same for one feed as for all (a search sync reads
   * the whole catalog) wait for the batch's `BatchLoaded` instead.
   */
  | {
      readonly _tag: "Loaded"
      readonly feed: string
      readonly kind: string
      readonly runId: string
      readonly batched?: boolean
    }
  /** Every run of a batch ended; the kinds whose loads committed. */
  | { readonly _tag: "BatchLoaded"; readonly kinds: ReadonlyArray<string>; readonly runIds: ReadonlyArray<string> }
  /** The shared version moved under this process (another writer, or this one seen through the store). */
  | {
      readonly _tag: "Followed"
      /** catalog_version moved (false: only links were reassigned elsewhere). */
      readonly catalogMoved: boolean
      /** Links were reassigned elsewhere (which ones is not known here): forget every cached link. */
      readonly linksMoved: boolean
    }

export interface CatalogChanged {
  readonly change: CatalogChange
  /** catalog_version after the change, as text. */
  readonly version: string
}

/** What a subscriber did about a change; the runner adds it to the run's summary. */
export interface FollowUp {
  readonly documentsUpserted?: number
  readonly documentsDeleted?: number
}

/** A follow-up that must fail the run ("sync": the search index; "load": anything else). */
export class FollowUpFailed extends Data.TaggedError("FollowUpFailed")<{
  readonly stage: "load" | "sync"
  readonly message: string
}> {}

type Outcome = Exit.Exit<FollowUp, FollowUpFailed>

interface Envelope {
  readonly event: CatalogChanged
  readonly replies: Queue.Queue<Outcome>
}

export interface CatalogEventsShape {
  /** Tells every subscriber and waits for all of them; their outcomes, one per subscriber. */
  publish(event: CatalogChanged): Effect.Effect<ReadonlyArray<Outcome>>
  /**
   * Tells every subscriber without waiting: for a follower, whose poll must
   * not stall behind a long search sync of a load in this process.
   */
  announce(event: CatalogChanged): Effect.Effect<void>
  /**
   * Runs `handler` for every event published from now until the scope
   * closes, one event at a time, in a fiber of its own. The subscription is
   * taken before this returns, so no event published afterwards is missed.
   */
  subscribe(
    name: string,
    handler: (event: CatalogChanged) => Effect.Effect<FollowUp | void, FollowUpFailed>
  ): Effect.Effect<void, never, Scope.Scope>
}

export class CatalogEvents extends Context.Service<CatalogEvents, CatalogEventsShape>()("app/infra/CatalogEvents") {
  static readonly layer = Layer.effect(
    CatalogEvents,
    Effect.gen(function* () {
      const pubsub = yield* PubSub.unbounded<Envelope>()
      // Subscribers whose outcome a publish waits for: counted only once their subscription is live.
      let subscribers = 0

      const publish = (event: CatalogChanged) =>
        Effect.gen(function* () {
          const replies = yield* Queue.unbounded<Outcome>()
          const expected = subscribers
          yield* PubSub.publish(pubsub, { event, replies })
          const outcomes: Array<Outcome> = []
          while (outcomes.length < expected) outcomes.push(yield* Queue.take(replies))
          return outcomes
        })

      const subscribe: CatalogEventsShape["subscribe"] = (name, handler) =>
        Effect.gen(function* () {
          const subscription = yield* PubSub.subscribe(pubsub)
          subscribers++
          const answer = ({ event, replies }: Envelope) =>
            handler(event).pipe(
              Effect.map((followUp): FollowUp => followUp ?? {}),
              // A defect in one subscriber must not leave a publisher waiting for its reply.
              Effect.catchDefect((defect) =>
                Effect.fail(new FollowUpFailed({ stage: "load", message: `${name} failed: ${String(defect)}` }))
              ),
              Effect.exit,
              Effect.flatMap((outcome) => Queue.offer(replies, outcome)),
              Effect.onInterrupt(() => Queue.offer(replies, Exit.succeed({})))
            )
          const loop = yield* Effect.forkDetach(Effect.forever(Effect.flatMap(PubSub.take(subscription), answer)))
          // Closing: stop being expected first, then answer what was published
          // to us but not handled, so no publisher waits for a gone subscriber.
          yield* Effect.addFinalizer(() =>
            Effect.gen(function* () {
              subscribers--
              yield* Fiber.interrupt(loop)
              for (const { replies } of yield* PubSub.takeUpTo(subscription, Number.POSITIVE_INFINITY)) {
                yield* Queue.offer(replies, Exit.succeed({}))
              }
            })
          )
        })

      const announce = (event: CatalogChanged) =>
        Effect.flatMap(Queue.unbounded<Outcome>(), (replies) => PubSub.publish(pubsub, { event, replies })).pipe(
          Effect.asVoid
        )

      return CatalogEvents.of({ publish, announce, subscribe })
    })
  )
}

/** The failures among a publish's outcomes. */
export const failuresOf = (outcomes: ReadonlyArray<Outcome>): ReadonlyArray<FollowUpFailed> =>
  outcomes.flatMap((outcome) => {
    const failure = Exit.findErrorOption(outcome)
    return failure._tag === "Some" ? [failure.value] : []
  })
