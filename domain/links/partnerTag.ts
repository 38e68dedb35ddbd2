import { TAG_PATTERN } from "./feedTrackingId.ts"
import { isReservedTag } from "./serviceTags.ts"

// A partner's tag travels in tracking ids and reports, so it must be short and
// URL-safe (TAG_PATTERN); it is derived from the name so people recognise it.
const MAX_BASE = 40

export const tagBaseFromName = (name: string): string => {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_BASE)
    .replace(/-+$/g, "")
  return TAG_PATTERN.test(base) ? base : "partner"
}

/** The first of base, base-2, base-3, ... not in `taken` and not reserved for the service (serviceTags.ts). */
export const dedupeTag = (base: string, taken: ReadonlySet<string>): string => {
  if (!taken.has(base) && !isReservedTag(base)) return base
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`
    if (!taken.has(candidate)) return candidate
  }
}
