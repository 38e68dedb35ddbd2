import type { FeedAuth, FeedWindow } from "./ApiOptions.ts"

// Builds one request of an API source from its feed definition: placeholders
// filled ({from}, {to}, {page}, {offset}, {size}, {cursor}, {env:NAME}, {pass:NAME}),
// credentials from the environment as headers, and the `redact` function
// every location passes through before it reaches a log line, a run record
// or an error message. Plain values in, plain values out: no I/O here.

type FeedLike = {
  readonly location: string
  readonly options: {
    readonly auth?: FeedAuth | undefined
    readonly body?: unknown
    readonly window?: unknown
    readonly pagination?: unknown
    readonly passes?: unknown
    readonly method?: string | undefined
    readonly currency?: string | undefined
  }
}

const ENV_PLACEHOLDER = /\{env:([A-Z_][A-Z0-9_]*)\}/g

/** Every environment variable a feed needs: its auth and the `{env:NAME}` placeholders of its location and body. */
export const requiredEnv = (feed: FeedLike): Array<string> => {
  const names = new Set<string>()
  const auth = feed.options.auth
  if (auth?.type === "basic") {
    names.add(auth.userEnv)
    names.add(auth.passwordEnv)
  } else if (auth !== undefined) names.add(auth.env)
  const text =
    feed.location +
    (feed.options.body === undefined ? "" : JSON.stringify(feed.options.body)) +
    (feed.options.currency ?? "")
  for (const match of text.matchAll(ENV_PLACEHOLDER)) names.add(match[1])
  return [...names]
}

/**
 * A feed's currency option: a code, or `{env:NAME}` naming the variable that
 * holds it (CJ reports amounts in the account's currency without naming it,
 * so the operator names it next to the account's credentials).
 */
export const feedCurrency = (feed: FeedLike, env: Env = process.env): string | undefined => {
  const currency = feed.options.currency
  return currency === undefined ? undefined : currency.replace(ENV_PLACEHOLDER, (_, name: string) => env[name] ?? "")
}

/** A source fetched by ApiSource.ts (credentials, a window, pages or POST) rather than as a plain file or URL. */
export const isApiSource = (feed: FeedLike) =>
  feed.options.auth !== undefined ||
  feed.options.window !== undefined ||
  feed.options.pagination !== undefined ||
  feed.options.passes !== undefined ||
  feed.options.method === "POST" ||
  requiredEnv(feed).length > 0

export type Env = Readonly<Record<string, string | undefined>>

/**
 * The values of a feed's variables, or the names of the unset ones. The one
 * deliberate environment read outside infra/AppConfig.ts (with gateOnEnv in
 * FeedConfig.ts): the variable NAMES come from feeds.json, so AppConfig cannot
 * list them, and a credential added for a new feed needs no code change.
 */
export const readEnv = (feed: FeedLike, env: Env = process.env) => {
  const names = requiredEnv(feed)
  const missing = names.filter((name) => !env[name])
  const values = Object.fromEntries(names.map((name) => [name, env[name] ?? ""]))
  return { values, missing }
}

export const authHeaders = (auth: FeedAuth | undefined, values: Record<string, string>): Record<string, string> => {
  if (auth === undefined) return {}
  switch (auth.type) {
    case "bearer":
      return { authorization: `Bearer ${values[auth.env]}` }
    case "basic":
      return {
        authorization: `Basic ${Buffer.from(`${values[auth.userEnv]}:${values[auth.passwordEnv]}`).toString("base64")}`
      }
    case "header":
      return { [auth.header.toLowerCase()]: values[auth.env] }
  }
}

/** The variables holding credentials (not, say, a publisher id in the path): named in 401 messages. */
export const credentialNames = (auth: FeedAuth | undefined) =>
  auth === undefined ? [] : auth.type === "basic" ? [auth.userEnv, auth.passwordEnv] : [auth.env]

// ---- date window ---------------------------------------------------------------

const DAY = 86_400_000

/**
 * [from, to]: the last `days` days, reaching further back (at most `maxDays`)
 * when the last success is older than that, so an outage leaves no gap.
 */
export const windowBounds = (window: FeedWindow, now: Date, lastSuccessAt: Date | undefined) => {
  const regular = now.getTime() - window.days * DAY
  const limit = now.getTime() - (window.maxDays ?? window.days) * DAY
  const catchUp = lastSuccessAt === undefined ? regular : lastSuccessAt.getTime() - DAY
  return { from: new Date(Math.max(limit, Math.min(regular, catchUp))), to: now }
}

export const formatInstant = (date: Date, format: FeedWindow["format"]): string => {
  const iso = date.toISOString()
  switch (format) {
    case "date":
      return iso.slice(0, 10)
    case "datetime":
      return iso.slice(0, 19)
    case "datetime-utc":
      return `${iso.slice(0, 19)}Z`
    case "unix":
      return String(Math.floor(date.getTime() / 1000))
    case "unix-ms":
      return String(date.getTime())
  }
}

// ---- placeholders ----------------------------------------------------------------

/** Values for one request; undefined ones are absent (the cursor before the first page). */
export interface Fill {
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly page?: number | undefined
  readonly offset?: number | undefined
  readonly size?: number | undefined
  readonly cursor?: string | undefined
  readonly env: Record<string, string>
  /** The values of the current pass over the window (options.passes). */
  readonly pass?: Readonly<Record<string, string>> | undefined
}

const NAMES = "from|to|page|offset|size|cursor|env:[A-Z_][A-Z0-9_]*|pass:[A-Za-z0-9_]+"
const PLACEHOLDER = new RegExp(`\\{(${NAMES})\\}`, "g")
const WHOLE_PLACEHOLDER = new RegExp(`^\\{(${NAMES})\\}$`)

/** The `{pass:NAME}` names a location and body use (each pass must give them all). */
export const passNames = (feed: FeedLike): Array<string> => {
  const text = feed.location + (feed.options.body === undefined ? "" : JSON.stringify(feed.options.body))
  return [...new Set([...text.matchAll(/\{pass:([A-Za-z0-9_]+)\}/g)].map((match) => match[1]))]
}

const valueOf = (name: string, fill: Fill): string | number | undefined => {
  if (name.startsWith("env:")) return fill.env[name.slice(4)]
  if (name.startsWith("pass:")) return fill.pass?.[name.slice(5)]
  switch (name) {
    case "from":
      return fill.from
    case "to":
      return fill.to
    case "page":
      return fill.page
    case "offset":
      return fill.offset
    case "size":
      return fill.size
    case "cursor":
      return fill.cursor
    default:
      return undefined
  }
}

/** Fills a location; every value is URL-encoded (a key or a timestamp must not change the URL's structure). */
export const fillLocation = (location: string, fill: Fill) =>
  location.replace(PLACEHOLDER, (_, name: string) => encodeURIComponent(String(valueOf(name, fill) ?? "")))

/**
 * Fills a JSON body template: placeholders inside strings are replaced; a
 * string that is a single placeholder takes the value's own type (a number
 * for {page}, null for an absent {cursor}), so GraphQL variables stay typed.
 */
export const fillBody = (template: unknown, fill: Fill): unknown => {
  if (typeof template === "string") {
    const whole = WHOLE_PLACEHOLDER.exec(template)
    if (whole !== null) {
      const value = valueOf(whole[1], fill)
      return value === undefined ? null : value
    }
    return template.replace(PLACEHOLDER, (_, name: string) => String(valueOf(name, fill) ?? ""))
  }
  if (Array.isArray(template)) return template.map((item) => fillBody(item, fill))
  if (typeof template === "object" && template !== null) {
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, fillBody(value, fill)]))
  }
  return template
}

// ---- redaction -------------------------------------------------------------------

/** Query parameters that carry credentials by convention (Awin's accessToken, apikey=, token=, sig=...). */
const SECRET_PARAM =
  /^(access_?token|api_?key|apikey|key|token|secret|password|passwd|pwd|auth|signature|sig|client_secret)$/i

/**
 * Hides credentials in a location before it is logged or stored: every value
 * of the feed's variables (raw and URL-encoded) and the values of query
 * parameters whose names say they are keys.
 */
export const redactor = (secrets: ReadonlyArray<string>) => {
  const values = secrets
    .filter((value) => value.length >= 3)
    .flatMap((value) => [value, encodeURIComponent(value)])
    .sort((a, b) => b.length - a.length)
  return (text: string): string => {
    let out = text
    for (const value of values) out = out.split(value).join("***")
    return out.replace(/([?&])([^=&#\s]+)=([^&#\s]*)/g, (whole, sep: string, name: string) =>
      SECRET_PARAM.test(decodeURIComponentSafe(name)) ? `${sep}${name}=***` : whole
    )
  }
}

const decodeURIComponentSafe = (text: string) => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** Redacts the key-named query parameters of a configured location (no variables involved). */
export const redactLocation = (location: string) => redactor([])(location)
