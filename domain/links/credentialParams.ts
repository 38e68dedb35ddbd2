// URLs we store for our own records (a link's original_url, a click's
// Referer) must not keep someone's credentials: a shopper's password-reset
// link pasted into /links/match, a session id in the page that linked to us.
// Parameters are dropped by name (a marker anywhere in it, any case, so
// reset_token, api_key and sessionid all go) or when the value is an e-mail
// address; a user:password@ part goes too. Everything else stays byte for
// byte (no re-encoding), so the record still reads as submitted.

/** A parameter whose name contains one of these (lower-cased) is dropped. */
export const CREDENTIAL_MARKERS: ReadonlyArray<string> = [
  "token",
  "key",
  "secret",
  "passw",
  "pwd",
  "session",
  "email",
  "auth",
  "signature",
  "credential"
]

const EMAIL_VALUE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "))
  } catch {
    return text
  }
}

const isCredential = (pair: string): boolean => {
  const equals = pair.indexOf("=")
  const name = decoded(equals < 0 ? pair : pair.slice(0, equals)).toLowerCase()
  if (CREDENTIAL_MARKERS.some((marker) => name.includes(marker))) return true
  return equals >= 0 && EMAIL_VALUE.test(decoded(pair.slice(equals + 1)).trim())
}

const keptPairs = (raw: string) =>
  raw
    .split("&")
    .filter((pair) => pair === "" || !isCredential(pair))
    .join("&")

/** `url` without credential-looking query or fragment parameters and without user info. */
export const dropCredentialParams = (url: string): string => {
  // Most referrers and product links have nothing to drop: no parsing for them.
  if (!url.includes("?") && !url.includes("#") && !url.includes("@")) return url
  const hashAt = url.indexOf("#")
  const beforeHash = hashAt < 0 ? url : url.slice(0, hashAt)
  const fragment = hashAt < 0 ? undefined : url.slice(hashAt + 1)
  const queryAt = beforeHash.indexOf("?")
  const base = (queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt)).replace(USERINFO, "$1")
  const query = queryAt < 0 ? undefined : keptPairs(beforeHash.slice(queryAt + 1))
  // A fragment is kept unless it is parameters (#access_token=...), which are filtered like a query.
  const keptFragment = fragment === undefined || !fragment.includes("=") ? fragment : keptPairs(fragment)
  return (
    base +
    (query === undefined || query.replace(/&/g, "") === ""
      ? ""
      : `?${query.replace(/^&+|&+$/g, "").replace(/&{2,}/g, "&")}`) +
    (keptFragment === undefined || keptFragment === "" ? "" : `#${keptFragment}`)
  )
}
