import { Deferred, Effect, Exit } from "effect"

// A bounded LRU of trackingId -> redirect target, filled on miss by `loader`,
// with in-flight coalescing: a burst of clicks on a cold link makes one
// DuckDB read, not one per click. Unknown ids are remembered briefly too, so
// a flood of made-up ids cannot turn into a flood of queries.
export interface RedirectTarget {
  /** Validated absolute http(s) URL without CR/LF. */
  readonly location: string
  /** The id the click is recorded under (a feed id resolves to its stored link). */
  readonly trackingId: string
  readonly partnerId: number | null
  readonly tag: string
}

const MISSING_TTL_MS = 30_000

export class LinkCache<E> {
  readonly #capacity: number
  readonly #entries = new Map<string, RedirectTarget>()
  readonly #missing = new Map<string, number>()
  readonly #inflight = new Map<string, Deferred.Deferred<RedirectTarget | undefined, E>>()
  readonly #loader: (id: string) => Effect.Effect<RedirectTarget | undefined, E>
  /** Bumped by invalidate: a load that started before must not store what it read. */
  #generation = 0
  hits = 0
  misses = 0

  constructor(capacity: number, loader: (id: string) => Effect.Effect<RedirectTarget | undefined, E>) {
    this.#capacity = Math.max(1, capacity)
    this.#loader = loader
  }

  get size(): number {
    return this.#entries.size
  }

  /** The cached target, refreshed as most recently used; undefined on a miss. */
  peek(id: string): RedirectTarget | undefined {
    const entry = this.#entries.get(id)
    if (entry === undefined) return undefined
    this.hits++
    this.#entries.delete(id)
    this.#entries.set(id, entry)
    return entry
  }

  get(id: string): Effect.Effect<RedirectTarget | undefined, E> {
    return Effect.suspend(() => {
      const hit = this.peek(id)
      if (hit !== undefined) return Effect.succeed(hit)
      const missingUntil = this.#missing.get(id)
      if (missingUntil !== undefined && missingUntil > Date.now()) return Effect.succeed(undefined)
      this.misses++
      const pending = this.#inflight.get(id)
      if (pending !== undefined) return Deferred.await(pending)
      const deferred = Deferred.makeUnsafe<RedirectTarget | undefined, E>()
      this.#inflight.set(id, deferred)
      const generation = this.#generation
      return this.#loader(id).pipe(
        Effect.onExit((exit) => {
          this.#inflight.delete(id)
          if (Exit.isSuccess(exit) && generation === this.#generation) this.#store(id, exit.value)
          return Deferred.done(deferred, exit)
        })
      )
    })
  }

  /**
   * Forgets these stored links, so the next click reads them again (their
   * programme changed). Entries are keyed by the id clicked: a feed id
   * (`f.…`) that resolved to one of them goes too.
   */
  invalidate(trackingIds: Iterable<string>): void {
    const ids = new Set(trackingIds)
    if (ids.size === 0) return
    this.#generation++
    for (const [key, target] of this.#entries) {
      if (ids.has(key) || ids.has(target.trackingId)) this.#entries.delete(key)
    }
    for (const id of ids) this.#missing.delete(id)
  }

  /** Puts a target in the cache (e.g. right after a link is created). */
  set(id: string, target: RedirectTarget): void {
    this.#store(id, target)
  }

  #store(id: string, target: RedirectTarget | undefined) {
    if (target === undefined) {
      if (this.#missing.size >= this.#capacity) this.#missing.clear()
      this.#missing.set(id, Date.now() + MISSING_TTL_MS)
      return
    }
    this.#missing.delete(id)
    this.#entries.delete(id)
    this.#entries.set(id, target)
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next()
      if (!oldest.done) this.#entries.delete(oldest.value)
    }
  }
}
