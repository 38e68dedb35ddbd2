// The MCP sessions this process holds, as the /mcp guard sees them: who
// opened each (a partner key, or an anonymous client IP) and when it was
// last used. The MCP server keeps a session (with its client's initialize
// payload) until a DELETE ends it and never expires one by itself: this
// table is what lets the guard cap sessions per owner and end idle ones.

interface Entry {
  readonly owner: string
  lastUsedMs: number
}

export type Touched = "live" | "expired" | "unknown"

export class McpSessionTable {
  readonly #sessions = new Map<string, Entry>()
  /** Open sessions and initializations in flight, per owner. */
  readonly #held = new Map<string, number>()
  #heldInAll = 0
  readonly #idleMs: number
  readonly #maxInAll: number

  /** `maxInAll`: open sessions of all owners together, however many addresses they come from. */
  constructor(idleMs: number, maxInAll: number) {
    this.#idleMs = idleMs
    this.#maxInAll = maxInAll
  }

  get size() {
    return this.#sessions.size
  }

  /**
   * Takes a slot for an initialize of `owner`, or says the owner is at
   * `limit`. Taken before the MCP server answers, so that concurrent
   * initializations cannot together exceed a limit; `open` or `release`
   * settles it.
   */
  reserve(owner: string, limit: number): "reserved" | "owner_full" | "all_full" {
    const held = this.#held.get(owner) ?? 0
    if (held >= limit) return "owner_full"
    if (this.#heldInAll >= this.#maxInAll) return "all_full"
    this.#held.set(owner, held + 1)
    this.#heldInAll++
    return "reserved"
  }

  /** The reserved slot becomes the session `sessionId`. */
  open(sessionId: string, owner: string, nowMs: number) {
    this.#sessions.set(sessionId, { owner, lastUsedMs: nowMs })
  }

  /** Gives back a reserved slot whose initialize opened no session. */
  release(owner: string) {
    const held = this.#held.get(owner)
    if (held === undefined) return
    this.#heldInAll--
    if (held > 1) this.#held.set(owner, held - 1)
    else this.#held.delete(owner)
  }

  /** A request on `sessionId`: marks it used, unless it has been idle too long already. */
  touch(sessionId: string, nowMs: number): Touched {
    const entry = this.#sessions.get(sessionId)
    if (entry === undefined) return "unknown"
    if (nowMs - entry.lastUsedMs > this.#idleMs) return "expired"
    entry.lastUsedMs = nowMs
    return "live"
  }

  /** Forgets a session (ended by its client, or expired); true when it was known. */
  close(sessionId: string): boolean {
    const entry = this.#sessions.get(sessionId)
    if (entry === undefined) return false
    this.#sessions.delete(sessionId)
    this.release(entry.owner)
    return true
  }

  /** The sessions idle for longer than the idle time. */
  idle(nowMs: number): Array<string> {
    const idle: Array<string> = []
    for (const [sessionId, entry] of this.#sessions) {
      if (nowMs - entry.lastUsedMs > this.#idleMs) idle.push(sessionId)
    }
    return idle
  }
}
