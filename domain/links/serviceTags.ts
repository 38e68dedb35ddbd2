// The tags the service itself attributes links and clicks to. No partner may
// hold one: a feed link /t/f.{product}.{tag} finds its partner by tag, so a
// partner named "API" holding `api` would collect every click on the default
// links of /api/deals. Compared case-insensitively (tags are lower-case, but
// a tag written into the store by hand may not be).

/** The tags the service's own links carry when no partner tag is given. */
export const SERVICE_TAGS = {
  /** /api/deals, /deals/{id} and /api/v1 discovery links without ?tag=: the default tag of feed links. */
  deals: "api",
  /** /api/search without ?tag=. */
  search: "ai-search",
  /** The HTML search page /search without ?tag=. */
  web: "web",
  /** Tracked links handed out over MCP without a partner key. */
  mcp: "mcp",
  /** Links made by POST /api/v1/links/match without an API key. */
  anonymous: "anon"
} as const

/**
 * The tag a feed link with an unknown tag is attributed to: such a link
 * redirects as the default link (`api`), so made-up tags write no rows.
 */
export const DEFAULT_FEED_TAG = SERVICE_TAGS.deals

/**
 * Every tag registration never hands out: the service's own, the one
 * tagBaseFromName falls back to, and names of the service's roles a partner
 * could pass off as official.
 */
export const RESERVED_TAGS: ReadonlyArray<string> = [...Object.values(SERVICE_TAGS), "partner", "admin"]

const reserved = new Set(RESERVED_TAGS)

export const isReservedTag = (tag: string): boolean => reserved.has(tag.toLowerCase())

/** The service's feed tags that may create a stored feed link without any partner behind them. */
export const isServiceFeedTag = (tag: string): boolean => {
  const lower = tag.toLowerCase()
  return (
    lower === SERVICE_TAGS.deals ||
    lower === SERVICE_TAGS.search ||
    lower === SERVICE_TAGS.web ||
    lower === SERVICE_TAGS.mcp
  )
}
