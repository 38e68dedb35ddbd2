import { createHmac, randomBytes } from "node:crypto"

// Raw IPs are never stored or logged: a click keeps HMAC(daily salt, IP). The
// salt is random, lives only in memory, and is replaced at each UTC midnight,
// so yesterday's hashes cannot be recomputed from an IP by anyone (us included).
// Consequence: a visitor's hash changes at midnight (uniques restart then),
// and a restart starts a new salt.
export class VisitorHasher {
  #day = ""
  #salt: Buffer = Buffer.alloc(0)
  readonly #now: () => number

  constructor(now: () => number = Date.now) {
    this.#now = now
  }

  hash(ip: string): string {
    const day = new Date(this.#now()).toISOString().slice(0, 10)
    if (day !== this.#day) {
      this.#day = day
      this.#salt = randomBytes(32)
    }
    return createHmac("sha256", this.#salt).update(ip).digest("base64url").slice(0, 22)
  }
}
