// "Same visitor, same link, within an hour counts once." A map of
// visitor+link -> window end, kept in insertion order so expired entries sit
// at the front and pruning stops at the first live one. Memory is bounded by
// `maxEntries`: past it the oldest windows are forgotten early (which can only
// over-count uniques, never lose a click). The oldest window's end is kept
// aside, so a click pays for the pruning walk (an iterator) only when there
// is something to prune: most clicks of a busy service have none.
export const UNIQUE_WINDOW_MS = 3_600_000

export class UniqueWindow {
  readonly #windowMs: number
  readonly #maxEntries: number
  readonly #ends = new Map<string, number>()
  /** The end of the oldest window in the map (the first to expire); Infinity when empty. */
  #oldestEnd = Number.POSITIVE_INFINITY

  constructor(windowMs = UNIQUE_WINDOW_MS, maxEntries = 500_000) {
    this.#windowMs = windowMs
    this.#maxEntries = maxEntries
  }

  /** True the first time `key` is seen in a window, false for repeats within it. */
  firstIn(key: string, now: number): boolean {
    const end = this.#ends.get(key)
    if (end !== undefined && end > now) return false
    if (end !== undefined) this.#ends.delete(key)
    this.#ends.set(key, now + this.#windowMs)
    if (this.#ends.size === 1) this.#oldestEnd = now + this.#windowMs
    // The walk stops at the first window still open while the map is within
    // bounds: with the oldest one open, it would remove nothing.
    // (A re-opened key was expired, so its old end was <= now: if it was the oldest, this prunes.)
    if (this.#oldestEnd <= now || this.#ends.size > this.#maxEntries) this.#prune(now)
    return true
  }

  get size(): number {
    return this.#ends.size
  }

  #prune(now: number) {
    this.#oldestEnd = Number.POSITIVE_INFINITY
    for (const [key, end] of this.#ends) {
      if (end > now && this.#ends.size <= this.#maxEntries) {
        this.#oldestEnd = end
        break
      }
      this.#ends.delete(key)
    }
  }
}

/**
 * The same rule for a store that keeps one window start per visitor and link
 * (PostgreSQL, shared by replicas): given the stored start (undefined: none)
 * and the key's clicks of one batch in time order, which are unique, and the
 * start to store. A click earlier than the stored start (a late batch from
 * another replica) counts as a repeat: windows are judged in the order clicks
 * reach the store.
 */
export const judgeWindow = (
  start: number | undefined,
  times: ReadonlyArray<number>,
  windowMs = UNIQUE_WINDOW_MS
): { readonly unique: Array<boolean>; readonly start: number | undefined } => {
  let current = start
  const unique = times.map((at) => {
    if (current !== undefined && at < current + windowMs) return false
    current = at
    return true
  })
  return { unique, start: current }
}
