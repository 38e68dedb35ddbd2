import { parse } from "tldts"

// The hosts to look up, most specific first: the exact host, each parent, and
// finally the registrable domain (eTLD+1 from the Public Suffix List with
// private domains on, so every *.myshopify.com store is its own merchant).
// Country domains differ by suffix, so amazon.co.uk never falls back to amazon.de.
export const hostCandidates = (hostname: string): ReadonlyArray<string> => {
  const host = hostname.toLowerCase().replace(/\.+$/, "")
  const info = parse(host, { allowPrivateDomains: true })
  if (info.isIp || info.domain === null || info.domain === "") return [host]
  const registrable = info.domain
  const out: Array<string> = []
  let current = host
  while (current.length > registrable.length && current.endsWith(`.${registrable}`)) {
    out.push(current)
    current = current.slice(current.indexOf(".") + 1)
  }
  out.push(registrable)
  return out
}

export const registrableDomain = (hostname: string): string | undefined => {
  const info = parse(hostname, { allowPrivateDomains: true })
  return info.isIp || info.domain === null || info.domain === "" ? undefined : info.domain
}
