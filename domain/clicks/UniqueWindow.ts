// "Same visitor, same link, within an hour counts once." A map of
// visitor+link -> window end, kept in insertion order so expired entries sit
// at the front and pruning stops at the first live one. Memory is bounded by
// `maxEntries`: past it the oldest windows are forgotten early (which can only
// over-count uniques, never lose a click).
export class UniqueWindow {
  readonly #windowMs: number
  readonly #maxEntries: number
  readonly #ends = new Map<string, number>()

  constructor(windowMs = 3_600_000, maxEntries = 500_000) {
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
