// Builds a network deep link from its template. Placeholders:
//   {url}        the destination: verbatim only where it begins the template (eBay's
//                "{url}?campid=...", the destination IS the link); anywhere else
//                percent-encoded like {enc(url)}, because a raw URL inside another
//                URL's query or path (ShareASale's urllink=, Partnerize's destination:)
//                lets the destination's own "&afftrack=..." or "#" override or cut off
//                the parameters that follow it, the click reference among them
//   {enc(url)}   the destination, percent-encoded
//   {sub}        our click reference (the tracking id)
//   {name}       any value from the network's account_params or the programme's link_params,
//                percent-encoded (ids are plain tokens, but never trust a feed to keep them so)
//   {enc(name)}  same, explicitly encoded
// Returns undefined when a placeholder has no value: a half-filled deep link
// would lose the commission, so the programme is then not usable.
const PLACEHOLDER = /\{(enc\()?([A-Za-z0-9_]+)\)?\}/g

export const buildDeepLink = (
  template: string,
  values: { readonly url: string; readonly sub: string; readonly params: Readonly<Record<string, unknown>> }
): string | undefined => {
  let missing = false
  let out = template.replace(PLACEHOLDER, (_match, enc: string | undefined, name: string, offset: number) => {
    let value: string | undefined
    if (name === "url") value = values.url
    else if (name === "sub") value = values.sub
    else {
      const raw = values.params[name]
      value = typeof raw === "string" || typeof raw === "number" ? String(raw) : undefined
    }
    if (value === undefined || value === "") {
      missing = true
      return ""
    }
    if (name === "url" && enc === undefined && offset === 0) return value
    return encodeURIComponent(value)
  })
  if (missing) return undefined
  // Templates of the form "{url}?a=b" (eBay) append to the merchant URL: when
  // that URL already has a query the join character must be "&".
  if (template.startsWith("{url}?") && values.url.includes("?")) {
    const at = values.url.length
    if (out[at] === "?") out = `${out.slice(0, at)}&${out.slice(at + 1)}`
  }
  return out
}
