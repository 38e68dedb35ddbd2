import * as nodeFs from "node:fs"
import { repairTail, segmentPath } from "./segmentFiles.ts"

/** The file calls a segment writer makes (node:fs; a test passes one that fails on cue). */
export type SegmentFs = Pick<
  typeof nodeFs,
  "openSync" | "writeSync" | "fdatasyncSync" | "fsyncSync" | "ftruncateSync" | "closeSync"
>

/** A scratch buffer past this (a backlog after a failure) is not kept for the next append. */
const SCRATCH_KEPT = 4 * 1024 * 1024

// The click worker's file work on the open journal segment. The worker keeps
// the lines of a failed append and hands them to the next one with the new
// lines, so a failed append must count for nothing: the segment holds the
// lines of the appends that succeeded, each once. Each append therefore
// writes at the segment's durable length, never at "the end of the file"
// (the file is not opened O_APPEND, whose writes ignore the position), and
// counts its bytes only once the fdatasync (and, for a new segment, the folder
// sync) succeeded. After a failed fdatasync Linux may have marked the unsynced
// pages clean without writing them, so a retry that only synced again could
// leave a hole: the retry writes every byte again. A write may be short: it
// loops until every byte is written. Only after a failure does a retry cut
// what the failed one left past the durable length; the success path costs a
// write and an fdatasync, as an append always did.
export class SegmentWriter {
  private fd = -1
  /** Bytes of the open segment on disk: the lines of the appends that succeeded. */
  private durable = 0
  /** Whether a failed append may have left bytes past `durable`. */
  private dirty = false
  /** Whether the open segment's name is on disk (its folder synced since it was opened). */
  private named = false
  /** The bytes of the append under way, kept between appends (a new Buffer each time costs more than the write). */
  private scratch = Buffer.alloc(0)

  private readonly dir: string
  private readonly fs: SegmentFs

  constructor(dir: string, fs: SegmentFs = nodeFs) {
    this.dir = dir
    this.fs = fs
  }

  get isOpen() {
    return this.fd >= 0
  }

  /**
   * Appends whole lines to segment `seq` (opened on the first append) and
   * makes them durable; throws leaving nothing of `text` counted, so the next
   * append may carry the same lines again.
   */
  append(seq: number, text: string): void {
    if (this.fd < 0) this.open(seq)
    if (this.dirty) this.fs.ftruncateSync(this.fd, this.durable)
    const size = this.encode(text)
    this.dirty = true
    for (let done = 0; done < size;) {
      const wrote = this.fs.writeSync(this.fd, this.scratch, done, size - done, this.durable + done)
      if (wrote <= 0) throw new Error(`journal segment write made no progress (${done} of ${size} bytes)`)
      done += wrote
    }
    this.fs.fdatasyncSync(this.fd)
    // A new file's name is durable only once its folder is synced (power loss).
    if (!this.named) this.syncFolder()
    this.named = true
    this.durable += size
    this.dirty = false
    if (this.scratch.length > SCRATCH_KEPT) this.scratch = Buffer.alloc(0)
  }

  /** Closes the open segment (to seal it), cutting what a failed append left: the reader sees whole lines only. */
  close(): void {
    if (this.dirty) this.fs.ftruncateSync(this.fd, this.durable)
    this.fs.closeSync(this.fd)
    this.fd = -1
  }

  private open(seq: number) {
    const path = segmentPath(this.dir, seq)
    try {
      // Journal files are readable by the service only.
      this.fd = this.fs.openSync(path, "wx", 0o600)
      this.durable = 0
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
      // A worker that failed left this segment open: carry on after its last whole line.
      this.durable = repairTail(path)
      this.fd = this.fs.openSync(path, "r+")
    }
    this.dirty = false
    this.named = false
  }

  /**
   * `text` as UTF-8 in the scratch buffer; returns its byte length. Writing
   * the string itself (writeSync(fd, string)) would not say how many bytes it
   * should have written, and asking (Buffer.byteLength) or a new Buffer per
   * append cost 20 % and 70 % more CPU per commit than the write (measured).
   */
  private encode(text: string) {
    // UTF-8 takes at most 3 bytes per UTF-16 unit (a surrogate pair: 4 for 2).
    if (this.scratch.length < text.length * 3) this.scratch = Buffer.allocUnsafeSlow(text.length * 3)
    return this.scratch.write(text, 0, "utf8")
  }

  private syncFolder() {
    const folder = this.fs.openSync(this.dir, "r")
    try {
      this.fs.fsyncSync(folder)
    } finally {
      this.fs.closeSync(folder)
    }
  }
}
