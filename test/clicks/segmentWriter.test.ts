import * as nodeFs from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { segmentPath } from "../../clicks/segmentFiles.ts"
import { type SegmentFs, SegmentWriter } from "../../clicks/SegmentWriter.ts"

// The click worker keeps lines whose commit failed and hands them to the next
// commit with the new ones. Whatever failed (the write, the fdatasync, the
// folder sync) and however much of the failed write reached the file, the
// segment must hold each line exactly once: a line twice is a click stored
// twice. The operating system cannot be made to fail on cue, so these tests
// run the writer on a real file through node:fs with one call failing once.

const real: SegmentFs = nodeFs
const SEQ = 7
let dir = ""
let path = ""
beforeEach(() => {
  dir = nodeFs.mkdtempSync(join(tmpdir(), "segment-writer-"))
  path = segmentPath(dir, SEQ)
})
afterEach(() => nodeFs.rmSync(dir, { recursive: true, force: true }))

const lines = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `{"i":"click-${from + i}","u":"Mozilla/5.0 ünïcode"}\n`).join("")
const fileLines = () => nodeFs.readFileSync(path, "utf8")

/** The bytes and file position a writeSync call asks for, whichever of its forms the writer uses. */
const requested = (data: string | NodeJS.ArrayBufferView, rest: ReadonlyArray<unknown>) => {
  if (typeof data === "string") return { bytes: Buffer.from(data), position: rest[0] as number | null | undefined }
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  const offset = (rest[0] as number | undefined) ?? 0
  const length = (rest[1] as number | undefined) ?? bytes.length - offset
  return { bytes: bytes.subarray(offset, offset + length), position: rest[2] as number | null | undefined }
}
/** Writes the first half of what was asked and says so, as a write(2) may. */
const writeHalf = (fd: number, data: string | NodeJS.ArrayBufferView, ...rest: Array<unknown>) => {
  const { bytes, position } = requested(data, rest)
  const half = bytes.subarray(0, bytes.length >> 1)
  return real.writeSync(fd, half, 0, half.length, position)
}
const ioError = (call: string) => Object.assign(new Error(`EIO: i/o error, ${call}`), { code: "EIO" })

/** node:fs with the `nth` use of `call` replaced by `fault`; counts every call. */
const failingOnce = <K extends keyof SegmentFs>(call: K, nth: number, fault: SegmentFs[K]) => {
  const calls: Record<string, number> = {}
  const counted = <F extends (...args: Array<never>) => unknown>(name: string, f: F) =>
    ((...args: Parameters<F>) => {
      calls[name] = (calls[name] ?? 0) + 1
      return name === call && calls[name] === nth ? (fault as unknown as F)(...args) : f(...args)
    }) as unknown as F
  const fs = Object.fromEntries(
    (["openSync", "writeSync", "fdatasyncSync", "fsyncSync", "ftruncateSync", "closeSync"] as const).map((name) => [
      name,
      counted(name, real[name] as (...args: Array<never>) => unknown)
    ])
  ) as unknown as SegmentFs
  return { fs, calls }
}

/** Appends `first` (which fails), then retries it with `second` behind it, as the worker does. */
const failThenRetry = (writer: SegmentWriter, first: string, second: string) => {
  expect(() => writer.append(SEQ, first)).toThrow()
  writer.append(SEQ, first + second)
}

describe("click journal segment writer", () => {
  it("a failed fdatasync: the retry leaves each line in the segment once", () => {
    const { fs } = failingOnce("fdatasyncSync", 2, () => {
      throw ioError("fdatasync")
    })
    const writer = new SegmentWriter(dir, fs)
    writer.append(SEQ, lines(0, 3))
    failThenRetry(writer, lines(3, 6), lines(6, 8))
    writer.close()
    expect(fileLines()).toBe(lines(0, 8))
  })

  it("a failed fdatasync whose pages the kernel dropped: the retry writes the lines again, not only syncs", () => {
    // After a failed writeback Linux may mark the pages clean: what was not
    // synced may never reach the disk, and a second fdatasync succeeds
    // without writing it. Here the unsynced bytes read back as zeros, as a
    // crash would find them.
    let synced = 0
    const { fs } = failingOnce("fdatasyncSync", 2, (fd) => {
      const size = nodeFs.fstatSync(fd).size
      const zeros = nodeFs.openSync(path, "r+")
      real.writeSync(zeros, Buffer.alloc(size - synced), 0, size - synced, synced)
      real.closeSync(zeros)
      throw ioError("fdatasync")
    })
    const writer = new SegmentWriter(dir, fs)
    writer.append(SEQ, lines(0, 3))
    synced = nodeFs.statSync(path).size
    failThenRetry(writer, lines(3, 6), lines(6, 8))
    expect(fileLines()).toBe(lines(0, 8))
  })

  it("a failed folder sync of a new segment: the lines once, and the folder synced on the retry", () => {
    const { fs, calls } = failingOnce("fsyncSync", 1, () => {
      throw ioError("fsync")
    })
    const writer = new SegmentWriter(dir, fs)
    failThenRetry(writer, lines(0, 3), lines(3, 4))
    expect(fileLines()).toBe(lines(0, 4))
    expect(calls.fsyncSync, "the folder sync was retried").toBe(2)
    writer.append(SEQ, lines(4, 6))
    expect(calls.fsyncSync, "once durable, the folder is not synced again").toBe(2)
    expect(fileLines()).toBe(lines(0, 6))
  })

  it("a short write: the rest is written, every line whole and once", () => {
    const { fs, calls } = failingOnce("writeSync", 1, writeHalf)
    const writer = new SegmentWriter(dir, fs)
    writer.append(SEQ, lines(0, 5))
    writer.append(SEQ, lines(5, 7))
    expect(fileLines()).toBe(lines(0, 7))
    expect(calls.writeSync, "the short write was followed by one for the rest").toBe(3)
  })

  it("a short write, then the write fails: the retry leaves no torn line and no line twice", () => {
    let writes = 0
    const fs: SegmentFs = {
      ...real,
      writeSync: (fd: number, data: string | NodeJS.ArrayBufferView, ...rest: Array<unknown>) => {
        writes++
        if (writes === 2) return writeHalf(fd, data, ...rest)
        if (writes === 3) throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" })
        return (real.writeSync as (...args: Array<unknown>) => number)(fd, data, ...rest)
      }
    }
    const writer = new SegmentWriter(dir, fs)
    writer.append(SEQ, lines(0, 2))
    failThenRetry(writer, lines(2, 6), lines(6, 7))
    writer.close()
    expect(fileLines()).toBe(lines(0, 7))
  })

  it("closed after a failed append, the segment holds only the lines appended", () => {
    const { fs } = failingOnce("fdatasyncSync", 2, () => {
      throw ioError("fdatasync")
    })
    const writer = new SegmentWriter(dir, fs)
    writer.append(SEQ, lines(0, 2))
    expect(() => writer.append(SEQ, lines(2, 4))).toThrow()
    writer.close()
    expect(fileLines()).toBe(lines(0, 2))
  })

  it("a segment left open by a failed worker: a torn last line is cut before appending", () => {
    nodeFs.writeFileSync(path, lines(0, 2) + lines(2, 3).slice(0, 20))
    const writer = new SegmentWriter(dir)
    writer.append(SEQ, lines(3, 5))
    writer.close()
    expect(fileLines()).toBe(lines(0, 2) + lines(3, 5))
  })
})
