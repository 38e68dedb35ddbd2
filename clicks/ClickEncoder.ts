import { botVerdict } from "../domain/clicks/botVerdict.ts"
import { UniqueWindow } from "../domain/clicks/UniqueWindow.ts"
import { VisitorHasher } from "../domain/clicks/VisitorHasher.ts"
import { dropCredentialParams } from "../domain/links/credentialParams.ts"
import { readClicks } from "./ClickPage.ts"

// What the click worker does to each raw click before it reaches the journal:
// hash the IP (daily salt, kept only in this thread's memory), judge bots,
// decide uniqueness (when this process owns the store) and encode one JSON
// line. A class of its own so bench:click-cost measures the worker's real code.
//
// The line is written field by field, not as JSON.stringify of a StoredClick:
// the same bytes (test/clicks/clickEncoder.test.ts), without an object per
// click, and the user agent's part of it (its JSON text and its bot verdict)
// is built once per distinct user agent. Keys stay in StoredClick's order.

/** A user agent's share of the line, built once: its JSON text and its bot verdict. */
interface AgentPart {
  readonly isBot: boolean
  /** `"u":…` */
  readonly agent: string
  /** `"b":…,"w":…` */
  readonly verdict: string
}

// The same few thousand user agents make most clicks (as botVerdict's own memo assumes); bounded: cleared when full.
const AGENT_MEMO_LIMIT = 20_000

const agentPart = (userAgent: string | null): AgentPart => {
  const verdict = botVerdict(userAgent ?? undefined)
  return {
    isBot: verdict.isBot,
    agent: `"u":${JSON.stringify(userAgent)}`,
    verdict: `"b":${verdict.isBot},"w":${JSON.stringify(verdict.reason)}`
  }
}

export class ClickEncoder {
  readonly hasher: VisitorHasher
  readonly #unique = new UniqueWindow()
  readonly #uniqueInMemory: boolean
  readonly #agents = new Map<string | null, AgentPart>()

  /** `now` decides the visitor hash's day (tests pass a fixed clock). */
  constructor(uniqueInMemory: boolean, now: () => number = Date.now) {
    this.#uniqueInMemory = uniqueInMemory
    this.hasher = new VisitorHasher(now)
  }

  #agentOf(userAgent: string | null): AgentPart {
    const known = this.#agents.get(userAgent)
    if (known !== undefined) return known
    const part = agentPart(userAgent)
    if (this.#agents.size >= AGENT_MEMO_LIMIT) this.#agents.clear()
    this.#agents.set(userAgent, part)
    return part
  }

  /** The journal lines of a page's clicks, and how many there are. */
  encode(bytes: ArrayBuffer, used: number): { readonly lines: string; readonly rows: number } {
    let lines = ""
    let rows = 0
    readClicks(new Uint8Array(bytes), used, (atMs, partnerId, trackingId, tag, ip, userAgent, referrer) => {
      const ipHash = this.hasher.hash(ip)
      const agent = this.#agentOf(userAgent)
      // Bots never take a human's unique slot.
      const isUnique = !agent.isBot && this.#uniqueInMemory && this.#unique.firstIn(`${ipHash} ${trackingId}`, atMs)
      // A Referer may carry the referring page's credentials (a session id, a reset token): never stored.
      const stored = referrer === null ? "null" : JSON.stringify(dropCredentialParams(referrer))
      // StoredClick's keys in its order; the hash is base64url (nothing to escape), the times and ids numbers.
      lines +=
        `{"a":${JSON.stringify(atMs)},"i":${JSON.stringify(trackingId)},"p":${partnerId},"t":${JSON.stringify(tag)},` +
        `"h":"${ipHash}",${agent.agent},"r":${stored},${agent.verdict},"q":${isUnique}}\n`
      rows++
    })
    return { lines, rows }
  }
}
