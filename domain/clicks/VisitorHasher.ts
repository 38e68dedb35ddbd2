import { createHmac, randomBytes } from "node:crypto"

// Raw IPs are never stored or logged: a click keeps HMAC(daily salt, IP). The
// salt is random, lives only in memory, and is replaced at each UTC midnight,
// so yesterday's hashes cannot be recomputed from an IP by anyone (us included).
// Consequence: a visitor's hash changes at midnight (uniques restart then),
// and a restart starts a new salt.
//
// Several replicas must hash one visitor alike, or a unique click would be
// counted once per replica: they share the day's salt through the database
// (`share`), which keeps only today's and tomorrow's. A day without a shared
// salt falls back to a random one of this process (uniques then over-count,
// no click is lost).
//
// Repeat visitors are common on the hot path, so the day's hashes are memoised
// (bounded, and dropped with the salt).
const MEMO_LIMIT = 50_000

/** A day's salt as the database keeps it: `day` is YYYY-MM-DD (UTC), `salt` base64. */
export interface DaySalt {
  readonly day: string
  readonly salt: string
}

export class VisitorHasher {
  #day = ""
  #salt: Buffer = Buffer.alloc(0)
  #memo = new Map<string, string>()
  #shared = new Map<string, Buffer>()
  readonly #now: () => number

  constructor(now: () => number = Date.now) {
    this.#now = now
  }

  /** Salts agreed with other replicas; replaces the current day's salt if it differs. */
  share(salts: ReadonlyArray<DaySalt>) {
    this.#shared = new Map(salts.map((s) => [s.day, Buffer.from(s.salt, "base64")]))
    const today = this.#shared.get(this.#day)
    if (today !== undefined && !today.equals(this.#salt)) this.#use(this.#day, today)
  }

  hash(ip: string): string {
    const day = new Date(this.#now()).toISOString().slice(0, 10)
    if (day !== this.#day) this.#use(day, this.#shared.get(day) ?? randomBytes(32))
    const known = this.#memo.get(ip)
    if (known !== undefined) return known
    const hashed = createHmac("sha256", this.#salt).update(ip).digest("base64url").slice(0, 22)
    if (this.#memo.size >= MEMO_LIMIT) this.#memo.clear()
    this.#memo.set(ip, hashed)
    return hashed
  }

  #use(day: string, salt: Buffer) {
    this.#day = day
    this.#salt = salt
    this.#memo = new Map()
  }
}
