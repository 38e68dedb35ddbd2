import { Clock, Deferred, Effect, Exit } from "effect"

// A per-key memo for expensive, slowly changing answers: fresh for `freshMs`,
// then served as is (stale) for up to `staleMs` while one background fiber
// recomputes it, so a caller waits only for a key's first computation or one
// idle for longer than `staleMs`. Concurrent callers of a missing key share
// one computation; a failure is handed to those waiting and not kept.
// Ages are read from Effect's Clock, so a test can drive them with TestClock.

export interface StaleWhileRevalidate<A, E> {
  get(key: string): Effect.Effect<A, E>
}

interface Entry<A, E> {
  value: A | undefined
  at: number
  inflight: Deferred.Deferred<A, E> | undefined
}

export const makeStaleWhileRevalidate = <A, E>(options: {
  readonly compute: (key: string) => Effect.Effect<A, E>
  readonly freshMs: number
  readonly staleMs: number
  /** Keys kept; the oldest inserted goes first. */
  readonly capacity: number
}) =>
  Effect.gen(function* () {
    // Computations belong to the service, not to the request that started
    // them: a client hanging up does not waste the work others will read.
    const scope = yield* Effect.scope
    const entries = new Map<string, Entry<A, E>>()

    const start = (key: string, entry: Entry<A, E>) =>
      Effect.gen(function* () {
        const deferred = yield* Deferred.make<A, E>()
        entry.inflight = deferred
        const settle = (exit: Exit.Exit<A, E>) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) =>
            Effect.sync(() => {
              if (Exit.isSuccess(exit)) {
                entry.value = exit.value
                entry.at = now
              }
              entry.inflight = undefined
            })
          ).pipe(Effect.andThen(Deferred.done(deferred, exit)))
        yield* Effect.forkIn(Effect.flatMap(Effect.exit(options.compute(key)), settle), scope)
        return deferred
      })

    const get = (key: string): Effect.Effect<A, E> =>
      Effect.gen(function* () {
        let entry = entries.get(key)
        if (entry === undefined) {
          if (entries.size >= options.capacity) entries.delete(entries.keys().next().value!)
          entry = { value: undefined, at: 0, inflight: undefined }
          entries.set(key, entry)
        }
        const age = (yield* Clock.currentTimeMillis) - entry.at
        if (entry.value !== undefined && age < options.staleMs) {
          if (age >= options.freshMs && entry.inflight === undefined) yield* start(key, entry)
          return entry.value
        }
        return yield* Deferred.await(entry.inflight ?? (yield* start(key, entry)))
      })

    return { get } satisfies StaleWhileRevalidate<A, E>
  })
