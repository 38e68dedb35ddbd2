import { Effect } from "effect"
import { expect } from "vitest"
import { Database } from "../../infra/Database.ts"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { insertCatalog } from "./catalogFixture.ts"
import { getJson, postJson } from "./http.ts"
import type { RunningService } from "./TestService.ts"

// A partner with a little business, for the dashboard and export tests: links
// matched over HTTP on the fixture catalog's programmes, clicks through /t/
// (a browser's user agent: human clicks), and conversions written as the
// ledger stores them (the network side cannot run here).

export interface PartnerHistory {
  readonly key: string
  readonly partnerId: number
  readonly links: ReadonlyArray<{ tracking_id: string; tracking_url: string; program_id: string }>
}

export const BROWSER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"

/** URLs on two fixture programmes (Example Store on CJ, Lamp Shop on Awin): the links' merchants. */
export const HISTORY_URLS = [
  "https://www.example-store.com/p/boots",
  "https://www.example-store.com/p/coat",
  "https://lamp-shop.com/lamps/arc"
] as const

/** Clicks per link of HISTORY_URLS, in order. */
export const HISTORY_CLICKS = [3, 1, 2] as const

/** Conversions: link index, status, partner share (USD), commission (negative: a correction row). */
export const HISTORY_CONVERSIONS: ReadonlyArray<readonly [number, string, string, number]> = [
  [0, "approved", "7.0000", 10],
  [0, "pending", "3.5000", 5],
  [2, "approved", "1.2500", 2],
  [2, "declined", "0.0000", 4],
  [0, "approved", "-0.5000", -1]
]

export const createPartnerHistory = async (service: RunningService, name = "Dash Partner"): Promise<PartnerHistory> => {
  await service.run(
    Effect.gen(function* () {
      yield* insertCatalog()
      yield* (yield* ProgramMatcher).reload
    })
  )
  const registered = await postJson(`${service.url}/api/v1/partners/register`, {
    name,
    email: `${name.replaceAll(/\W/g, "").toLowerCase()}@x.example`
  })
  const key: string = registered.body.api_key
  const partnerId: number = registered.body.partner.id
  const links: Array<{ tracking_id: string; tracking_url: string; program_id: string }> = []
  for (const url of HISTORY_URLS) {
    const res = await postJson(`${service.url}/api/v1/links/match`, { url }, { authorization: `Bearer ${key}` })
    expect(res.body.matched).toBe(true)
    links.push({ ...res.body.link, program_id: res.body.program.id })
  }
  for (const [index, count] of HISTORY_CLICKS.entries()) {
    for (let i = 0; i < count; i++) {
      const click = await fetch(links[index].tracking_url, {
        redirect: "manual",
        headers: { "user-agent": BROWSER_AGENT, "x-forwarded-for": `198.51.100.${i + 1}` }
      })
      expect(click.status).toBe(302)
    }
  }
  await service.run(
    Effect.gen(function* () {
      const db = yield* Database
      for (const [n, [index, status, share, commission]] of HISTORY_CONVERSIONS.entries()) {
        yield* db.run(
          `INSERT INTO conversions (id, network_id, network_tx_id, click_ref, tracking_id, partner_id, tag, currency,
             order_amount, commission, reporting_currency, commission_reporting, order_amount_reporting, fx_rate,
             partner_share, platform_share, status, event_at, network_updated_at, source, created_at, updated_at, attributed_at)
           VALUES ($1, 'cj', $2, $3, $3, $4, 'dash', 'USD', 100, $6, 'USD', $6, 100, 1, $5::DECIMAL(18,4), 0, $7,
             now(), now(), 'test', now(), now(), now())`,
          [
            `cj:dash-${partnerId}-${n}`,
            `dash-${partnerId}-${n}`,
            links[index].tracking_id,
            partnerId,
            share,
            commission,
            status
          ]
        )
      }
    })
  )
  const total = HISTORY_CLICKS.reduce((sum, n) => sum + n, 0)
  // clicks are written in batches: wait (at most 10 s) until the statistics hold them all
  const clicksSeen = async () =>
    (await getJson(`${service.url}/api/v1/partners/me`, { authorization: `Bearer ${key}` })).body.totals.clicks
  for (let attempt = 0; attempt < 200 && (await clicksSeen()) !== total; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  expect(await clicksSeen()).toBe(total)
  return { key, partnerId, links }
}

/** RFC 4180 parsing (quoted fields, doubled quotes, CRLF), enough to read our export back. */
export const parseCsv = (text: string): Array<Array<string>> => {
  const rows: Array<Array<string>> = []
  let row: Array<string> = []
  let field = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (char === '"') quoted = false
      else field += char
    } else if (char === '"') quoted = true
    else if (char === ",") {
      row.push(field)
      field = ""
    } else if (char === "\r" && text[i + 1] === "\n") {
      row.push(field)
      rows.push(row)
      row = []
      field = ""
      i++
    } else field += char
  }
  return rows
}
