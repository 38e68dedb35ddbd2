// "Same visitor, same link, within an hour counts once." A map of
// visitor+link -> window end, kept in insertion order so expired entries sit
// at the front and pruning stops at the first live one. Memory is bounded by
// `maxEntries`: past it the oldest windows are forgotten early (which can only
// over-count uniques, never lose a click).
export const UNIQUE_WINDOW_MS = 3_600_000

export class UniqueWindow {
  readonly #windowMs: number
  readonly #maxEntries: number
  readonly #ends = new Map<string, number>()

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
    this.#prune(now)
    return true
  }

  get size(): number {
    return this.#ends.size
  }

  #prune(now: number) {
    for (const [key, end] of this.#ends) {
      if (end > now && this.#ends.size <= this.#maxEntries) break
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
