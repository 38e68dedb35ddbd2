import type { Partner } from "./Partners.ts"

// Authenticated partners by key hash, each trusted for KEY_CACHE_TTL_MS: it
// saves a store read per request, and bounds how long a key rotated or
// revoked elsewhere (another replica, the operator command on the store)
// keeps working here. A change made in this process forgets the partner at once.

/** How long an authenticated key is trusted without reading the store again. */
export const KEY_CACHE_TTL_MS = 3_000

/** Entries kept at most (one per key in use): past it, the cache starts over. */
const MAX_ENTRIES = 100_000

interface Entry {
  readonly partner: Partner
  readonly until: number
}

export class KeyCache {
  readonly #entries = new Map<string, Entry>()
  readonly #ttlMs: number

  constructor(ttlMs = KEY_CACHE_TTL_MS) {
    this.#ttlMs = ttlMs
  }

  /** The partner of `hash` if it was read from the store less than the TTL ago (`now`: the caller's Clock). */
  get(hash: string, now: number): Partner | undefined {
    const entry = this.#entries.get(hash)
    if (entry === undefined) return undefined
    if (entry.until > now) return entry.partner
    this.#entries.delete(hash)
    return undefined
  }

  set(hash: string, partner: Partner, now: number): void {
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear()
    this.#entries.set(hash, { partner, until: now + this.#ttlMs })
  }

  /** Forgets every key of a partner (its key was rotated or revoked here). */
  forgetPartner(partnerId: number): void {
    for (const [hash, entry] of this.#entries) if (entry.partner.id === partnerId) this.#entries.delete(hash)
  }
}
