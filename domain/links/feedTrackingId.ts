// Tracked links handed out by the discovery feed (/api/deals, /api/search)
// must not write to the database per request, so their tracking id is
// derived, not stored: `f.{base64url(productId)}.{tag}`. The redirect decodes
// it, and on the first click creates (once) the stored tracking link whose
// short id travels to the network as the click reference.
export const TAG_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/

export const feedTrackingId = (productId: string, tag: string): string =>
  `f.${Buffer.from(productId, "utf8").toString("base64url")}.${tag}`

export const parseFeedTrackingId = (id: string): { readonly productId: string; readonly tag: string } | undefined => {
  if (!id.startsWith("f.")) return undefined
  const dot = id.indexOf(".", 2)
  if (dot < 0) return undefined
  const tag = id.slice(dot + 1)
  if (!TAG_PATTERN.test(tag)) return undefined
  const encoded = id.slice(2, dot)
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return undefined
  const productId = Buffer.from(encoded, "base64url").toString("utf8")
  return productId.length > 0 && productId.length <= 200 ? { productId, tag } : undefined
}
