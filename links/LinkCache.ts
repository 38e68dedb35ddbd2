import { Deferred, Effect, Exit } from "effect"

// A bounded LRU of trackingId -> redirect target, filled on miss by `loader`,
// with in-flight coalescing: a burst of clicks on a cold link makes one
// store read, not one per click. Unknown ids are remembered for MISSING_TTL_MS,
// so a flood of one made-up id costs one query per interval; kept short
// because with several replicas a link may be created on another one right
// after this one was asked for its id (a link restored or copied with its id):
// it redirects here at most MISSING_TTL_MS later. A link never asked for here
// is read from the store on its first click, so it redirects at once.
export interface RedirectTarget {
  /** Validated absolute http(s) URL without CR/LF. */
  readonly location: string
  /** The id the click is recorded under (a feed id resolves to its stored link). */
  readonly trackingId: string
  readonly partnerId: number | null
  readonly tag: string
}

export const MISSING_TTL_MS = 2_000

/** A cached target and when it was last moved to the recent end (in moves: inserts and refreshes). */
interface Entry<T> {
  readonly target: T
  moved: number
}

export class LinkCache<E, T extends RedirectTarget = RedirectTarget> {
  readonly #capacity: number
  /**
   * How many moves an entry may age before a hit moves it to the recent end
   * again. A hit used to move it every time (a Map delete and set per
   * redirect: the Map's table refills with holes and is rebuilt every few
   * hundred hits, measurable on the 302 path). An entry fewer moves old
   * than this has fewer newer entries than this, so it outlives at least
   * capacity - refreshAfter more inserts: a link clicked at least once in
   * that many inserts is never evicted, as with a strict LRU.
   */
  readonly #refreshAfter: number
  #moves = 0
  readonly #entries = new Map<string, Entry<T>>()
  readonly #missing = new Map<string, number>()
  readonly #inflight = new Map<string, Deferred.Deferred<T | undefined, E>>()
  /** Stored tracking id -> the other ids cached with it as target (feed ids resolve to stored links). */
  readonly #aliases = new Map<string, Set<string>>()
  readonly #loader: (id: string) => Effect.Effect<T | undefined, E>
  /** Bumped by invalidate: a load that started before must not store what it read. */
  #generation = 0
  hits = 0
  misses = 0

  constructor(capacity: number, loader: (id: string) => Effect.Effect<T | undefined, E>) {
    this.#capacity = Math.max(1, capacity)
    this.#refreshAfter = Math.max(1, Math.floor(this.#capacity / 2))
    this.#loader = loader
  }

  get size(): number {
    return this.#entries.size
  }

  /** The cached target, refreshed as most recently used; undefined on a miss. */
  peek(id: string): T | undefined {
    const entry = this.#entries.get(id)
    if (entry === undefined) return undefined
    this.hits++
    if (this.#moves - entry.moved >= this.#refreshAfter) {
      this.#entries.delete(id)
      this.#entries.set(id, entry)
      entry.moved = ++this.#moves
    }
    return entry.target
  }

  get(id: string): Effect.Effect<T | undefined, E> {
    return Effect.suspend(() => {
      const hit = this.peek(id)
      if (hit !== undefined) return Effect.succeed(hit)
      const missingUntil = this.#missing.get(id)
      // plain Date.now(): the redirect's synchronous path, no Effect per request
      if (missingUntil !== undefined && missingUntil > Date.now()) return Effect.succeed(undefined)
      this.misses++
      const pending = this.#inflight.get(id)
      if (pending !== undefined) return Deferred.await(pending)
      const deferred = Deferred.makeUnsafe<T | undefined, E>()
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

  /** Puts a target in the cache (e.g. right after a link is created). */
  set(id: string, target: T): void {
    this.#store(id, target)
  }

  /**
   * Forgets what is cached for a tracking id: its own entry, feed ids that
   * resolved to it, and a remembered "unknown". The next click reads the
   * store again (call it after a link's destination changes or it is created).
   */
  invalidate(trackingId: string): void {
    this.#generation++
    this.#entries.delete(trackingId)
    this.#missing.delete(trackingId)
    const aliases = this.#aliases.get(trackingId)
    if (aliases === undefined) return
    this.#aliases.delete(trackingId)
    for (const alias of aliases) {
      if (this.#entries.get(alias)?.target.trackingId === trackingId) this.#entries.delete(alias)
    }
  }

  /** Forgets everything (another process changed links it cannot name to us). */
  invalidateAll(): void {
    this.#generation++
    this.#entries.clear()
    this.#missing.clear()
    this.#aliases.clear()
  }

  #store(id: string, target: T | undefined) {
    if (target === undefined) {
      if (this.#missing.size >= this.#capacity) this.#missing.clear()
      this.#missing.set(id, Date.now() + MISSING_TTL_MS)
      return
    }
    this.#missing.delete(id)
    this.#entries.delete(id)
    this.#entries.set(id, { target, moved: ++this.#moves })
    if (target.trackingId !== id) {
      let aliases = this.#aliases.get(target.trackingId)
      if (aliases === undefined) this.#aliases.set(target.trackingId, (aliases = new Set()))
      aliases.add(id)
    }
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next()
      if (!oldest.done) this.#evict(oldest.value)
    }
  }

  #evict(id: string) {
    const target = this.#entries.get(id)?.target
    this.#entries.delete(id)
    if (target === undefined || target.trackingId === id) return
    const aliases = this.#aliases.get(target.trackingId)
    aliases?.delete(id)
    if (aliases?.size === 0) this.#aliases.delete(target.trackingId)
  }
}
