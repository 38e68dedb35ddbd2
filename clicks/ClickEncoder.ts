import { botVerdict } from "../domain/clicks/botVerdict.ts"
import { UniqueWindow } from "../domain/clicks/UniqueWindow.ts"
import { VisitorHasher } from "../domain/clicks/VisitorHasher.ts"
import { dropCredentialParams } from "../domain/links/credentialParams.ts"
import type { StoredClick } from "./ClickJournal.ts"
import { readClicks } from "./ClickPage.ts"

// What the click worker does to each raw click before it reaches the journal:
// hash the IP (daily salt, kept only in this thread's memory), judge bots,
// decide uniqueness (when this process owns the store) and encode one JSON
// line. A class of its own so bench:click-cost measures the worker's real code.
export class ClickEncoder {
  readonly hasher = new VisitorHasher()
  readonly #unique = new UniqueWindow()
  readonly #uniqueInMemory: boolean

  constructor(uniqueInMemory: boolean) {
    this.#uniqueInMemory = uniqueInMemory
  }

  /** The journal lines of a page's clicks, and how many there are. */
  encode(bytes: ArrayBuffer, used: number): { readonly lines: string; readonly rows: number } {
    let lines = ""
    let rows = 0
    readClicks(new Uint8Array(bytes), used, (click) => {
      const ipHash = this.hasher.hash(click.ip)
      const verdict = botVerdict(click.userAgent ?? undefined)
      // Bots never take a human's unique slot.
      const isUnique =
        !verdict.isBot && this.#uniqueInMemory && this.#unique.firstIn(`${ipHash} ${click.trackingId}`, click.atMs)
      const row: StoredClick = {
        a: click.atMs,
        i: click.trackingId,
        p: click.partnerId,
        t: click.tag,
        h: ipHash,
        u: click.userAgent,
        // A Referer may carry the referring page's credentials (a session id, a reset token): never stored.
        r: click.referrer === null ? null : dropCredentialParams(click.referrer),
        b: verdict.isBot,
        w: verdict.reason,
        q: isUnique
      }
      lines += JSON.stringify(row) + "\n"
      rows++
    })
    return { lines, rows }
  }
}
