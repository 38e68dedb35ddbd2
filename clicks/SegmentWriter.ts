import * as nodeFs from "node:fs"
import { openSegment } from "./ClickJournal.ts"

/** The file calls a segment writer makes (node:fs; a test passes one that fails on cue). */
export type SegmentFs = Pick<
  typeof nodeFs,
  "openSync" | "writeSync" | "fdatasyncSync" | "fsyncSync" | "ftruncateSync" | "closeSync"
>

// The click worker's file work on the open journal segment.
export class SegmentWriter {
  private fd = -1

  private readonly dir: string
  private readonly fs: SegmentFs

  constructor(dir: string, fs: SegmentFs = nodeFs) {
    this.dir = dir
    this.fs = fs
  }

  get isOpen() {
    return this.fd >= 0
  }

  append(seq: number, text: string): void {
    const created = this.fd < 0
    if (created) this.fd = openSegment(this.dir, seq)
    this.fs.writeSync(this.fd, text)
    this.fs.fdatasyncSync(this.fd)
    // A new file's name is durable only once its folder is synced (power loss).
    if (created) this.syncFolder()
  }

  close(): void {
    this.fs.closeSync(this.fd)
    this.fd = -1
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
