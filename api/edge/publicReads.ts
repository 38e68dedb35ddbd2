// Which paths PublicReadLimits.ts limits per client, apart from the guard
// itself so the OpenAPI document (EdgeResponsesDocs.ts) can say which
// operations may answer 429 without loading the rate limits.

const OWN_LIMITS = ["/mcp", "/admin", "/health", "/metrics"]
const V1 = "/api/v1/"
const LIMITED_V1 = "/api/v1/products/search"

/** `url` is `path` itself or below it (not /healthz for /health), with or without a query. */
const isUnder = (url: string, path: string) => {
  if (!url.startsWith(path)) return false
  const next = url.charCodeAt(path.length)
  return Number.isNaN(next) || next === 47 /* / */ || next === 63 /* ? */
}

/** True for the paths the public-read guard limits. */
export const isPublicRead = (url: string) => {
  // the redirect first, in one comparison: it is the hot path
  if (url.charCodeAt(1) === 116 && url.charCodeAt(2) === 47) return false
  if (url.startsWith(V1)) return isUnder(url, LIMITED_V1)
  for (const path of OWN_LIMITS) if (isUnder(url, path)) return false
  return true
}
