// What servers older than this CLI leave out of an answer, and what their
// behaviour meant. The client decodes every answer with the API contract
// (contract.ts); a field the contract gained after such a server was released
// is filled in here first, so `aff` keeps working against it. --json still
// prints the body exactly as the server sent it. Only the answers `aff`
// shows are listed: anything else an older server leaves out fails as an
// unexpected response (exit 2), as does a body the contract does not allow.

type Defaults = Readonly<Record<string, (body: Record<string, unknown>) => unknown>>

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** `body` with each absent field of `defaults` set; anything that is not an object stays as it is (and fails decoding). */
const withDefaults = (body: unknown, defaults: Defaults): unknown => {
  if (!isRecord(body)) return body
  const filled = { ...body }
  for (const [field, value] of Object.entries(defaults)) if (!(field in filled)) filled[field] = value(body)
  return filled
}

const always = (value: unknown) => (): unknown => value

/** One link of GET /api/v1/links, or the answer of PATCH /api/v1/links/{tracking_id}. */
export const linkItem = (link: unknown): unknown =>
  withDefaults(link, {
    // servers before link names and states: every link unnamed and active
    name: always(null),
    state: always("active"),
    // servers before programme numbers
    program_number: always(null),
    // servers before links per market: every link served every market
    market: always(null),
    // servers before links followed the catalog: a link kept the programme it was made with
    status: always("affiliated"),
    unaffiliated_since: always(null),
    last_change: always(null)
  })

/** GET /api/v1/links: a page of links. */
export const linkPage = (page: unknown): unknown =>
  isRecord(page) && Array.isArray(page.data) ? { ...page, data: page.data.map(linkItem) } : page

/** POST /api/v1/links/match, matched or not. */
export const matchAnswer = (answer: unknown): unknown => {
  // servers before markets matched without a market preference
  const withMarket = withDefaults(answer, { market: always(null) })
  if (!isRecord(withMarket)) return withMarket
  if (withMarket.matched !== true) {
    return withDefaults(withMarket, {
      message: always("no affiliate programme covers this URL"),
      program: always(null),
      link: always(null)
    })
  }
  return {
    ...withMarket,
    // servers before programme numbers and markets
    program: withDefaults(withMarket.program, { number: always(null), country: always(null) }),
    // servers before programmes could forbid deep links: every link lands on its destination
    link: withDefaults(withMarket.link, {
      deep_link: always(true),
      lands_on: (link) => link.destination_url
    })
  }
}
