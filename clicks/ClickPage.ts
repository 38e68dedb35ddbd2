// The raw facts of a click, as the redirect appends them: a fixed-size page
// of bytes, filled on the request path with a few native writes (no objects
// per click), handed to the click worker by transferring the page's memory
// (no copy) and returned to a pool once the worker has journaled it.
//
// Layout per click: f64 time (ms), i32 partner id (-1: none), then five
// strings (tracking id, tag, IP, user agent, referrer), each a u16 length
// (0xffff: absent) and its latin1 bytes. Node decodes header values as
// latin1, so latin1 round-trips them exactly, one byte per character.
export const PAGE_BYTES = 256 * 1024

/** Longest user agent or referrer kept (characters), as the clicks table always did. */
export const MAX_TEXT = 512
/** Upper bound of one click's bytes (ids are at most ~370 characters, texts are clipped). */
const MAX_CLICK_BYTES = 2_048
const ABSENT = 0xffff

export class ClickPage {
  readonly bytes: Buffer
  used = 0
  count = 0

  constructor(bytes: Buffer = Buffer.allocUnsafeSlow(PAGE_BYTES)) {
    this.bytes = bytes
  }

  get hasRoom(): boolean {
    return PAGE_BYTES - this.used >= MAX_CLICK_BYTES
  }

  append(
    atMs: number,
    partnerId: number | null,
    trackingId: string,
    tag: string,
    ip: string,
    userAgent: string | undefined,
    referrer: string | undefined
  ): void {
    const b = this.bytes
    b.writeDoubleLE(atMs, this.used)
    b.writeInt32LE(partnerId ?? -1, this.used + 8)
    let at = this.used + 12
    at = writeText(b, at, trackingId, 400)
    at = writeText(b, at, tag, 100)
    at = writeText(b, at, ip, 100)
    at = writeText(b, at, userAgent, MAX_TEXT)
    this.used = writeText(b, at, referrer, MAX_TEXT)
    this.count++
  }
}

const writeText = (b: Buffer, at: number, text: string | undefined, max: number): number => {
  if (text === undefined || text === "") {
    b.writeUInt16LE(ABSENT, at)
    return at + 2
  }
  const clipped = text.length > max ? text.slice(0, max) : text
  const n = b.write(clipped, at + 2, "latin1")
  b.writeUInt16LE(n, at)
  return at + 2 + n
}

/** One click's raw facts, as read back from a page: positional, so reading a page allocates no object per click. */
export type ClickVisitor = (
  atMs: number,
  partnerId: number | null,
  trackingId: string,
  tag: string,
  ip: string,
  userAgent: string | null,
  referrer: string | null
) => void

/** Reads back every click of a page (in the worker). */
export const readClicks = (bytes: Uint8Array, used: number, each: ClickVisitor): void => {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, used)
  let at = 0
  const text = (): string | null => {
    const n = b.readUInt16LE(at)
    at += 2
    if (n === ABSENT) return null
    const value = b.toString("latin1", at, at + n)
    at += n
    return value
  }
  while (at < used) {
    const atMs = b.readDoubleLE(at)
    const partner = b.readInt32LE(at + 8)
    at += 12
    const trackingId = text() ?? ""
    const tag = text() ?? ""
    const ip = text() ?? "unknown"
    const userAgent = text()
    const referrer = text()
    each(atMs, partner === -1 ? null : partner, trackingId, tag, ip, userAgent, referrer)
  }
}
