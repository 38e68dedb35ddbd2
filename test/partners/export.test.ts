import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getJson } from "../support/http.ts"
import { createPartnerHistory, HISTORY_CLICKS, type PartnerHistory, parseCsv } from "../support/partnerHistory.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// GET /api/v1/partners/me/export?format=csv: the partner's history as CSV
// whose sums are partners/me's totals, quoted per RFC 4180, and safe to open
// in a spreadsheet (no cell runs as a formula).
describe("GET /api/v1/partners/me/export", () => {
  let service: RunningService
  let history: PartnerHistory
  const auth = () => ({ authorization: `Bearer ${history.key}` })
  const exportCsv = async (query = "?format=csv") => {
    const response = await fetch(`${service.url}/api/v1/partners/me/export${query}`, { headers: auth() })
    return { status: response.status, type: response.headers.get("content-type"), text: await response.text() }
  }

  beforeAll(async () => {
    service = await startService()
    history = await createPartnerHistory(service, "Export Partner")
  })
  afterAll(() => service.close())

  it("sums to the totals of partners/me: clicks, unique clicks, conversions and revenue", async () => {
    const csv = await exportCsv()
    expect(csv.status).toBe(200)
    expect(csv.type).toContain("text/csv")
    expect(csv.text.endsWith("\r\n")).toBe(true)
    const [header, ...rows] = parseCsv(csv.text)
    const column = (row: Array<string>, name: string) => row[header.indexOf(name)]
    const clicks = rows.filter((row) => row[0] === "clicks")
    const conversions = rows.filter((row) => row[0] === "conversion")
    const me = (await getJson(`${service.url}/api/v1/partners/me`, auth())).body

    const sum = (list: Array<Array<string>>, name: string) => list.reduce((n, row) => n + Number(column(row, name)), 0)
    expect(sum(clicks, "clicks")).toBe(me.totals.clicks)
    expect(sum(clicks, "clicks")).toBe(HISTORY_CLICKS.reduce((a, b) => a + b, 0))
    expect(sum(clicks, "unique_clicks")).toBe(me.totals.unique_clicks)
    expect(conversions.filter((row) => column(row, "kind") === "sale").length).toBe(me.totals.conversions.total)
    const earning = conversions.filter((row) => ["pending", "approved"].includes(column(row, "status")))
    expect(sum(earning, "partner_share").toFixed(4)).toBe(me.totals.revenue.total)
    expect(new Set(conversions.map((row) => column(row, "currency")))).toEqual(new Set([me.reporting_currency]))
    for (const row of clicks) expect(column(row, "date")).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  })

  it("quotes per RFC 4180 and defuses a link name that a spreadsheet would run as a formula", async () => {
    const name = '=HYPERLINK("https://evil.example","win"), now'
    const patched = await fetch(`${service.url}/api/v1/links/${history.links[0].tracking_id}`, {
      method: "PATCH",
      headers: { ...auth(), "content-type": "application/json" },
      body: JSON.stringify({ name })
    })
    expect(patched.status).toBe(200)
    const csv = await exportCsv()
    expect(csv.text).toContain(`"'=HYPERLINK(""https://evil.example"",""win""), now"`)
    const [header, ...rows] = parseCsv(csv.text)
    const named = rows.filter((row) => row[header.indexOf("tracking_id")] === history.links[0].tracking_id)
    expect(named.length).toBeGreaterThan(0)
    for (const row of named) expect(row[header.indexOf("link_name")]).toBe(`'${name}`)
    // every row has as many fields as the header
    for (const row of rows) expect(row.length).toBe(header.length)
  })

  it("answers format=csv by default, 400 naming format for another, 401 without a key", async () => {
    expect((await exportCsv("")).status).toBe(200)
    const other = await exportCsv("?format=xlsx")
    expect(other.status).toBe(400)
    expect(other.text).toContain("format")
    const anonymous = await fetch(`${service.url}/api/v1/partners/me/export?format=csv`)
    expect(anonymous.status).toBe(401)
  })

  it("is documented in the OpenAPI as text/csv", async () => {
    const spec = (await getJson(`${service.url}/openapi.json`)).body
    const operation = spec.paths["/api/v1/partners/me/export"].get
    expect(Object.keys(operation.responses["200"].content)).toEqual(["text/csv; charset=utf-8"])
  })
})
