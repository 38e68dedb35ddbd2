import { createHash, type Hash, randomBytes } from "node:crypto"

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
// (bounded, and dropped with the salt). A new visitor costs one HMAC-SHA256,
// computed from SHA-256 states that already absorbed the salt's inner and
// outer pads (RFC 2104), copied per IP: createHmac sets the key up again for
// every IP, ~9 µs a hash against ~2 µs here (measured; same bytes out).
const MEMO_LIMIT = 50_000
const DAY_MS = 86_400_000
const BLOCK = 64 // SHA-256's block size, the HMAC key pad length

/** SHA-256 states after the salt's HMAC inner and outer pads. */
const padStates = (salt: Buffer): { inner: Hash; outer: Hash } => {
  // A key longer than the block is hashed first (RFC 2104); our salts are 32 bytes.
  const key = salt.length > BLOCK ? createHash("sha256").update(salt).digest() : salt
  const inner = Buffer.alloc(BLOCK, 0x36)
  const outer = Buffer.alloc(BLOCK, 0x5c)
  for (let i = 0; i < key.length; i++) {
    inner[i] ^= key[i]
    outer[i] ^= key[i]
  }
  return { inner: createHash("sha256").update(inner), outer: createHash("sha256").update(outer) }
}

/** A day's salt as the database keeps it: `day` is YYYY-MM-DD (UTC), `salt` base64. */
export interface DaySalt {
  readonly day: string
  readonly salt: string
}

export class VisitorHasher {
  #day = ""
  /** The current day's bounds (epoch ms), so a click needs no date formatting. */
  #dayStart = 0
  #dayEnd = 0
  #salt: Buffer = Buffer.alloc(0)
  #pads = padStates(this.#salt)
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
    const now = this.#now()
    if (now < this.#dayStart || now >= this.#dayEnd) {
      const day = new Date(now).toISOString().slice(0, 10)
      this.#dayStart = Math.floor(now / DAY_MS) * DAY_MS
      this.#dayEnd = this.#dayStart + DAY_MS
      if (day !== this.#day) this.#use(day, this.#shared.get(day) ?? randomBytes(32))
    }
    const known = this.#memo.get(ip)
    if (known !== undefined) return known
    const inner = this.#pads.inner.copy().update(ip).digest()
    const hashed = this.#pads.outer.copy().update(inner).digest("base64url").slice(0, 22)
    if (this.#memo.size >= MEMO_LIMIT) this.#memo.clear()
    this.#memo.set(ip, hashed)
    return hashed
  }

  #use(day: string, salt: Buffer) {
    this.#day = day
    this.#salt = salt
    this.#pads = padStates(salt)
    this.#memo = new Map()
  }
}
