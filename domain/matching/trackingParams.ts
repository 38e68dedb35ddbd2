// Query parameters that carry someone's affiliate attribution or an ad
// platform's click id. They are removed from the destination before we build
// our own link, so a partner never re-affiliates (or leaks) another party's
// click by accident. From the reference list, plus a few common ad click ids.
const EXACT = new Set([
  "tag",
  "ascsubtag",
  "linkcode",
  "linkid",
  "creativeasin",
  "cjevent",
  "irclickid",
  "awc",
  "tduid",
  "ranmid",
  "ransiteid",
  "raneaid",
  "campid",
  "customid",
  "mkcid",
  "mkrid",
  "toolid",
  "mkevt",
  "gclid",
  "fbclid",
  "msclkid",
  "dclid",
  "gbraid",
  "wbraid",
  "yclid",
  "ttclid",
  "twclid",
  "igshid",
  "mc_cid",
  "mc_eid",
  "_ga",
  "_gl"
])

export const isTrackingParam = (name: string): boolean => {
  const lower = name.toLowerCase()
  return EXACT.has(lower) || lower.startsWith("utm_")
}

/** A copy of `url` without tracking parameters and without the fragment (never sent to a server). */
export const stripTracking = (url: URL): URL => {
  const out = new URL(url.href)
  out.hash = ""
  const names = [...new Set([...out.searchParams.keys()])]
  for (const name of names) if (isTrackingParam(name)) out.searchParams.delete(name)
  // URLSearchParams re-serialises the query; only touch it when something changed
  // so an untouched URL keeps its exact encoding.
  if (names.some(isTrackingParam)) {
    if ([...out.searchParams.keys()].length === 0) out.search = ""
  } else {
    out.search = url.search
  }
  return out
}
