import { json, networkFixture, type SeenRequest, startStub } from "./networkStubs.ts"

// Loopback stand-ins for four more networks' report APIs, written from their
// documentation (each stub names its page), serving the documented-shape
// fixtures of test/fixtures/networks/ as if today were the fixture's asOf.
// A request of the wrong shape gets an error, so a test fails on it.

export type Fixture = { asOf?: string; columns?: Array<string>; records: Array<Record<string, any>> }
/** A fixture file's name, or a fixture built by the test (many records, say). */
type FixtureSource = () => string | Fixture
const load = (source: FixtureSource) => {
  const fixture = source()
  return typeof fixture === "string" ? (networkFixture(fixture) as Fixture) : fixture
}

const ymd = /^\d{4}-\d{2}-\d{2}$/
const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/
const isoLocal = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`
const csvCell = (value: unknown) => {
  const text = String(value ?? "")
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}
/** "yyyy-mm-dd hh:mm:ss" (Partnerize, Skimlinks: UTC) as epoch ms. */
const spaced = (text: string) => Date.parse(`${text.replace(" ", "T")}Z`)

/**
 * Rakuten Advertising reports by token URL (pubhelp.rakutenadvertising.com,
 * "Run Reports Via API"): GET /en/reports/{report}/filters with start_date and
 * end_date (YYYY-MM-DD), include_summary, network, tz, date_type (process or
 * transaction) and the report's token; the answer is the report as CSV. Rows
 * are kept whose Process Date (date_type=process) or Transaction Date lies
 * within the dates (inclusive). A wrong token gets 401.
 */
export const rakutenStub = (token: string, network: string, fixture: FixtureSource) =>
  startStub((request, res) => {
    const { query } = request
    if (query.get("token") !== token) return json(res, 401, { error: "invalid token" })
    if (request.method !== "GET" || request.path !== "/en/reports/signature-orders-report/filters")
      return json(res, 404, { error: "no such report" })
    const start = query.get("start_date") ?? ""
    const end = query.get("end_date") ?? ""
    const dateType = query.get("date_type")
    if (!ymd.test(start) || !ymd.test(end) || query.get("network") !== network || query.get("tz") === null)
      return json(res, 400, { error: "start_date, end_date (YYYY-MM-DD), network and tz are required" })
    if (dateType !== "process" && dateType !== "transaction")
      return json(res, 400, { error: "date_type must be process or transaction" })
    const { columns = [], records } = load(fixture)
    const field = dateType === "process" ? "Process Date" : "Transaction Date"
    const rows = records.filter((row) => row[field] >= start && row[field] <= end)
    const lines = [columns, ...rows.map((row) => columns.map((column) => row[column]))]
    res
      .writeHead(200, { "content-type": "text/csv" })
      .end(lines.map((cells) => cells.map(csvCell).join(",")).join("\r\n") + "\r\n")
  })

/**
 * Partnerize partner conversions report (api-docs.partnerize.com/partner,
 * "Retrieve a Partner Conversions Report"): GET
 * /reporting/report_publisher/publisher/{publisher_id}/conversion.json, Basic
 * application key : user API key; start_date required (ISO 8601), end_date,
 * date_type (last_modified: the window filters the last modification, else the
 * conversion time), offset; 300 conversions a page (the envelope's limit).
 */
export const partnerizeStub = (publisherId: string, applicationKey: string, userKey: string, fixture: FixtureSource) =>
  startStub((request, res) => {
    if (request.headers.authorization !== basic(applicationKey, userKey))
      return json(res, 401, { error: { message: "Authentication required", type: "unauthorized" } })
    if (
      request.method !== "GET" ||
      request.path !== `/reporting/report_publisher/publisher/${publisherId}/conversion.json`
    )
      return json(res, 404, { error: { message: "Not found" } })
    const { query } = request
    const start = query.get("start_date") ?? ""
    const end = query.get("end_date") ?? ""
    if (!isoUtc.test(start) || (end !== "" && !isoUtc.test(end)))
      return json(res, 400, { error: { message: "start_date is required (ISO 8601)", type: "validation" } })
    const field = query.get("date_type") === "last_modified" ? "last_modified" : "conversion_time"
    const offset = Number(query.get("offset") ?? "0")
    const { records } = load(fixture)
    const inWindow = records.filter(({ conversion_data: data }) => {
      const at = spaced(data[field])
      return at >= Date.parse(start) && (end === "" || at <= Date.parse(end))
    })
    const page = inWindow.slice(offset, offset + 300)
    json(res, 200, {
      start_date_time_utc: start.replace("T", " ").replace("Z", ""),
      end_date_time_utc: end.replace("T", " ").replace("Z", ""),
      limit: 300,
      count: page.length,
      conversions: page
    })
  })

/**
 * Skimlinks commission report (developers.skimlinks.com "Reporting API"):
 * GET /publisher/{publisher_id}/commission-report?access_token=..., either
 * start_date/end_date or updated_since (commissions changed since then, by
 * last_updated), limit 1..5000 (30 when absent), offset; the answer is
 * { pagination: { has_next, total_count, offset, limit }, commissions }. A
 * wrong token gets 401, a limit out of bounds 400.
 */
export const skimlinksStub = (publisherId: string, accessToken: string, fixture: FixtureSource) =>
  startStub((request, res) => {
    const { query } = request
    if (query.get("access_token") !== accessToken) return json(res, 401, { error: "Invalid access token" })
    if (request.method !== "GET" || request.path !== `/publisher/${publisherId}/commission-report`)
      return json(res, 404, { error: "Not found" })
    const limit = Number(query.get("limit") ?? "30")
    const offset = Number(query.get("offset") ?? "0")
    if (!Number.isInteger(limit) || limit < 1 || limit > 5000) return json(res, 400, { error: "limit: 1 to 5000" })
    const since = query.get("updated_since")
    if (since === null || !isoLocal.test(since)) return json(res, 400, { error: "updated_since: yyyy-mm-ddThh:mm:ss" })
    const { records } = load(fixture)
    const changed = records.filter((row) => spaced(row.transaction_details.last_updated) >= Date.parse(`${since}Z`))
    json(res, 200, {
      pagination: { has_next: offset + limit < changed.length, total_count: changed.length, offset, limit },
      commissions: changed.slice(offset, offset + limit)
    })
  })

/**
 * eBay Partner Network Transaction Detail Report ("Getting started: Partner
 * Reporting via the New API Endpoints"; partnerhelp.ebay.com "Transaction
 * Detail Report Changes and Reporting API Migration Guidelines"): GET
 * /Mediapartners/{AccountSID}/Reports/ebay_partner_transaction_detail.json,
 * Basic AccountSID:AuthToken, STATUS (ALL, APPROVED, PENDING), START_DATE and
 * END_DATE (YYYY-MM-DD), date_type (update_date or event_date); records in the
 * impact.com report envelope, `pageSize` a page, linked by @nextpageuri.
 */
export const ebayStub = (accountSid: string, authToken: string, pageSize: number, fixture: FixtureSource) =>
  startStub((request: SeenRequest, res) => {
    if (request.headers.authorization !== basic(accountSid, authToken))
      return json(res, 401, { Status: "ERROR", Message: "Authentication failed" })
    const path = `/Mediapartners/${accountSid}/Reports/ebay_partner_transaction_detail.json`
    if (request.method !== "GET" || request.path !== path)
      return json(res, 404, { Status: "ERROR", Message: "not found" })
    const { query } = request
    const start = query.get("START_DATE") ?? ""
    const end = query.get("END_DATE") ?? ""
    const dateType = query.get("date_type")
    if (!ymd.test(start) || !ymd.test(end) || query.get("STATUS") === null)
      return json(res, 400, { Status: "ERROR", Message: "STATUS, START_DATE and END_DATE (YYYY-MM-DD) are required" })
    if (dateType !== "update_date" && dateType !== "event_date")
      return json(res, 400, { Status: "ERROR", Message: "date_type must be update_date or event_date" })
    const field = dateType === "update_date" ? "UpdateDate" : "EventDate"
    const { records } = load(fixture)
    // END_DATE is a whole day
    const inWindow = records.filter((row) => {
      const at = Date.parse(row[field])
      return at >= Date.parse(`${start}T00:00:00Z`) && at < Date.parse(`${end}T00:00:00Z`) + 86_400_000
    })
    const page = Number(query.get("Page") ?? "1")
    const pages = Math.max(1, Math.ceil(inWindow.length / pageSize))
    const next = new URLSearchParams(query)
    next.set("Page", String(page + 1))
    json(res, 200, {
      "@page": String(page),
      "@numpages": String(pages),
      "@pagesize": String(pageSize),
      "@total": String(inWindow.length),
      "@nextpageuri": page < pages ? `${path}?${next}` : "",
      Records: inWindow.slice((page - 1) * pageSize, page * pageSize)
    })
  })
