import type { TrackingLink } from "./TrackingLinkStore.ts"

// Links are never deleted and change only through a reassignment (which
// forgets this memo), so a repeat match can be answered from memory without
// a database round trip. Bounded: forgotten wholesale when full, then re-read.

const MEMO_LIMIT = 100_000

export type RepeatMatchMemo = ReturnType<typeof makeRepeatMatchMemo>

export const makeRepeatMatchMemo = () => {
  const known = new Map<string, TrackingLink>()
  return {
    /** The link stored under `key` (linkKey), if this process has seen it. */
    get: (key: string) => known.get(key),
    remember: (key: string, link: TrackingLink) => {
      if (known.size >= MEMO_LIMIT) known.clear()
      known.set(key, link)
    },
    /** Links moved: every repeat match reads the store again. */
    forget: () => known.clear()
  }
}
