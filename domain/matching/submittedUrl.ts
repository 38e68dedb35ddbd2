// Validation and WHATWG normalisation of a URL a partner submits. Pure: no I/O.
//
// The WHATWG parser already lower-cases the host, converts IDN to punycode,
// drops default ports and resolves dot segments; on top of that we refuse
// anything that is not an absolute http(s) URL of bounded length, because the
// result ends up in a Location header and in a network's deep link.
export const MAX_URL_LENGTH = 2048

export type ParsedUrl = { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly message: string }

// Control characters (CR/LF, tabs, NUL) and spaces would be silently removed or
// escaped by the parser; refusing them keeps "what you sent" == "what we saw".
const FORBIDDEN = /[\u0000-\u0020\u007f]/

export const parseHttpUrl = (input: string): ParsedUrl => {
  if (input.length === 0) return { ok: false, message: "must not be empty" }
  if (input.length > MAX_URL_LENGTH) return { ok: false, message: `must be at most ${MAX_URL_LENGTH} characters` }
  if (FORBIDDEN.test(input)) return { ok: false, message: "must not contain spaces or control characters" }
  let url: URL
  try {
    url = new URL(input)
  } catch {
    return { ok: false, message: "must be an absolute http(s) URL" }
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, message: "must use the http or https scheme" }
  }
  if (url.username !== "" || url.password !== "") return { ok: false, message: "must not contain credentials" }
  // "example.com." and "example.com" are the same host.
  const host = url.hostname.replace(/\.+$/, "")
  if (host.length === 0 || host.length > 253) return { ok: false, message: "must have a valid host name" }
  if (host !== url.hostname) url.hostname = host
  return { ok: true, url }
}

/** True when a string is safe to send as a Location header: absolute http(s), no CR/LF or controls. */
export const isSafeRedirectTarget = (value: string): boolean => {
  if (value.length === 0 || value.length > 8192 || FORBIDDEN.test(value)) return false
  try {
    const url = new URL(value)
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0
  } catch {
    return false
  }
}
