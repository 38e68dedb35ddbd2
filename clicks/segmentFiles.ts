import { closeSync, mkdirSync, openSync, readdirSync, readSync, statSync, truncateSync, unlinkSync } from "node:fs"
import { join } from "node:path"

// The click journal's segment files (ClickJournal.ts), on node:fs alone:
// the click worker imports these, and while they came with effect its
// thread took 330 ms of CPU to start instead of 150.

export const journalDir = (dataDir: string) => join(dataDir, "click-journal")

export const segmentPath = (dir: string, seq: number) => join(dir, `${String(seq).padStart(12, "0")}.jsonl`)

const SEGMENT = /^(\d{12})\.jsonl$/

export interface Segment {
  readonly seq: number
  readonly path: string
}

/** The journal folder (created 0700) and its segments, oldest first. */
export const listSegments = (dir: string): Array<Segment> => {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  return readdirSync(dir)
    .flatMap((name) => {
      const match = SEGMENT.exec(name)
      return match === null ? [] : [{ seq: Number(match[1]), path: join(dir, name) }]
    })
    .sort((a, b) => a.seq - b.seq)
}

/**
 * Cuts a line torn by a crash in the middle of a write (only the last line
 * can be); returns the bytes left.
 */
export const repairTail = (path: string): number => {
  const size = statSync(path).size
  if (size === 0) return 0
  const fd = openSync(path, "r")
  try {
    const tail = Buffer.alloc(Math.min(size, 64 * 1024))
    let end = size
    while (end > 0) {
      const from = Math.max(0, end - tail.length)
      const n = readSync(fd, tail, 0, end - from, from)
      const newline = tail.subarray(0, n).lastIndexOf(0x0a)
      if (newline >= 0) {
        end = from + newline + 1
        break
      }
      end = from
    }
    if (end < size) truncateSync(path, end)
    return end
  } finally {
    closeSync(fd)
  }
}

export const removeSegment = (path: string) => unlinkSync(path)
