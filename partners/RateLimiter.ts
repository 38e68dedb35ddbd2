// In-memory token buckets, one per key ("key:<hash>", "ip:<addr>", ...).
// A bucket holds up to `burst` tokens and refills at perMinute/60 per second;
// a request takes one token or is told how many seconds until one is back.
// This process's memory: the buckets on DuckDB (one process), and the
// fallback on PostgreSQL when the shared buckets cannot be read (RateLimits.ts).
export interface RateLimit {
  readonly perMinute: number
  readonly burst: number
}

export type Verdict = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number }

interface Bucket {
  tokens: number
  at: number
}

const MAX_BUCKETS = 100_000

export class RateLimiter {
  readonly #limit: RateLimit
  readonly #now: () => number
  readonly #buckets = new Map<string, Bucket>()

  constructor(limit: RateLimit, now: () => number = Date.now) {
    this.#limit = limit
    this.#now = now
  }

  take(key: string): Verdict {
    const now = this.#now()
    const ratePerMs = this.#limit.perMinute / 60_000
    let bucket = this.#buckets.get(key)
    if (bucket === undefined) {
      if (this.#buckets.size >= MAX_BUCKETS) this.#prune(now, ratePerMs)
      bucket = { tokens: this.#limit.burst, at: now }
      this.#buckets.set(key, bucket)
    } else {
      bucket.tokens = Math.min(this.#limit.burst, bucket.tokens + (now - bucket.at) * ratePerMs)
      bucket.at = now
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return { allowed: true }
    }
    const waitMs = ratePerMs > 0 ? (1 - bucket.tokens) / ratePerMs : 60_000
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) }
  }

  /**
   * Sets the bucket's level as of now: the shared level a sync brought back
   * (SyncedBuckets.ts). Below zero is a debt (more was granted across replicas
   * than the bucket held): refused until it is refilled past one token.
   */
  settle(key: string, tokens: number) {
    const now = this.#now()
    const bucket = this.#buckets.get(key)
    const level = Math.min(this.#limit.burst, tokens)
    if (bucket === undefined) this.#buckets.set(key, { tokens: level, at: now })
    else {
      bucket.tokens = level
      bucket.at = now
    }
  }

  // Full buckets carry no information: dropping them bounds memory under a
  // flood of distinct IPs without forgetting anyone who is being limited.
  #prune(now: number, ratePerMs: number) {
    for (const [key, bucket] of this.#buckets) {
      if (bucket.tokens + (now - bucket.at) * ratePerMs >= this.#limit.burst) this.#buckets.delete(key)
    }
    if (this.#buckets.size >= MAX_BUCKETS) this.#buckets.clear()
  }
}
