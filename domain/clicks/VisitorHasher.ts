import { createHmac, randomBytes } from "node:crypto"

// Raw IPs are never stored or logged: a click keeps HMAC(daily salt, IP). The
// salt is random, lives only in memory, and is replaced at each UTC midnight,
// so yesterday's hashes cannot be recomputed from an IP by anyone (us included).
// Consequence: a visitor's hash changes at midnight (uniques restart then),
// and a restart starts a new salt.
//
// Repeat visitors are common on the hot path, so the day's hashes are memoised
// (bounded, and dropped with the salt).
const MEMO_LIMIT = 50_000

export class VisitorHasher {
  #day = ""
  #salt: Buffer = Buffer.alloc(0)
  #memo = new Map<string, string>()
  readonly #now: () => number

  constructor(now: () => number = Date.now) {
    this.#now = now
  }

  hash(ip: string): string {
    const day = new Date(this.#now()).toISOString().slice(0, 10)
    if (day !== this.#day) {
      this.#day = day
      this.#salt = randomBytes(32)
      this.#memo = new Map()
    }
    const known = this.#memo.get(ip)
    if (known !== undefined) return known
    const hashed = createHmac("sha256", this.#salt).update(ip).digest("base64url").slice(0, 22)
    if (this.#memo.size >= MEMO_LIMIT) this.#memo.clear()
    this.#memo.set(ip, hashed)
    return hashed
  }
}
