import { readFileSync } from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { buildSchema, execute, parse, validate } from "graphql"

// Loopback stand-ins for the networks' report APIs, each speaking its
// documented wire format and checking the request shape (method, path,
// query, auth header, body) before serving pages of the sample reports in
// data/samples/reports/. A request of the wrong shape gets the 400 (or 401)
// the real API would give, so a test fails on it instead of passing silently.
//   Awin:   GET /publishers/{publisherId}/transactions/?startDate&endDate&timezone, Bearer token;
//           one JSON array, no paging (help.awin.com/apidocs, "Get List of Transactions").
//   CJ:     POST /query, Bearer personal access token, GraphQL { query, variables } validated and executed
//           against CJ's published types; publisherCommissions { payloadComplete maxCommissionId records }
//           paged by sinceCommissionId (docs.cj.com, "Commission Detail API").
//   Impact: GET /Mediapartners/{AccountSID}/Actions?StartDate&EndDate (or LockingDateStart&LockingDateEnd),
//           Basic SID:token, Accept JSON; pages linked by @nextpageuri, "" on the last; 429 with a reset
//           header (integrations.impact.com: "List all actions", "The action object", "Rate Limits").

const samples = new URL("../../data/samples/reports/", import.meta.url)
export const sample = (name: string) => readFileSync(new URL(name, samples), "utf8")

export interface SeenRequest {
  readonly method: string
  readonly path: string
  readonly query: URLSearchParams
  readonly headers: IncomingMessage["headers"]
  readonly body: string
}

/** What the next `times` requests get instead of the normal answer (after `after` normal ones). */
export type Fault = { status: number; retryAfter?: string; body?: string; times: number; after?: number }

export interface Stub {
  readonly url: string
  readonly requests: Array<SeenRequest>
  faults: Array<Fault>
  close(): Promise<void>
}

export const startStub = async (answer: (request: SeenRequest, res: ServerResponse) => void): Promise<Stub> => {
  const stub: Stub = { url: "", requests: [], faults: [], close: async () => {} }
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://stub")
      const seen = {
        method: req.method ?? "",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8")
      }
      stub.requests.push(seen)
      const fault = stub.faults[0]
      if (fault !== undefined && (fault.after ?? 0) > 0) fault.after! -= 1
      else if (fault !== undefined) {
        if (--fault.times <= 0) stub.faults.shift()
        return res
          .writeHead(fault.status, {
            "content-type": "application/json",
            ...(fault.retryAfter ? { "retry-after": fault.retryAfter } : {})
          })
          .end(fault.body ?? JSON.stringify({ error: `fault ${fault.status}` }))
      }
      answer(seen, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return Object.assign(stub, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  })
}

export const json = (res: ServerResponse, status: number, body: unknown) =>
  res
    .writeHead(status, { "content-type": "application/json" })
    .end(typeof body === "string" ? body : JSON.stringify(body))

const isoSeconds = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/
const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/

const AWIN_DATE_TYPES: Record<string, string> = {
  transaction: "transactionDate",
  validation: "validationDate",
  amendment: "amendment"
}

/**
 * Awin's transactions list: startDate and endDate (yyyy-MM-ddThh:mm:ss, at
 * most 31 days apart) and timezone are required, dateType is transaction
 * (the default), validation or amendment; the answer is one JSON array. A
 * fixture with an asOf is filtered by the date dateType names (its
 * amendmentDates stand for the amendment date Awin keeps but does not
 * report); the samples (no asOf) are served whole, as Awin wrote them.
 */
export const awinStub = (
  publisherId: string,
  token: string,
  fixture?: () => { asOf?: string; amendmentDates?: Record<string, string>; records: Array<Record<string, unknown>> }
) =>
  startStub((request, res) => {
    if (request.headers.authorization !== `Bearer ${token}`) return json(res, 401, { error: "invalid_token" })
    if (request.method !== "GET" || request.path !== `/publishers/${publisherId}/transactions/`)
      return json(res, 404, { error: "not found" })
    const { query } = request
    const start = query.get("startDate") ?? ""
    const end = query.get("endDate") ?? ""
    if (!isoSeconds.test(start) || !isoSeconds.test(end) || query.get("timezone") !== "UTC") {
      return json(res, 400, { error: "startDate, endDate (yyyy-MM-ddThh:mm:ss) and timezone are required" })
    }
    if (Date.parse(`${end}Z`) - Date.parse(`${start}Z`) > 31 * 86_400_000)
      return json(res, 400, { error: "the maximum date range between startDate and endDate is 31 days" })
    const dateType = query.get("dateType") ?? "transaction"
    const field = AWIN_DATE_TYPES[dateType]
    if (field === undefined) return json(res, 400, { error: "dateType must be transaction, validation or amendment" })
    // The file's own text: numbers such as 4.50 reach the loader exactly as Awin wrote them.
    if (fixture === undefined) return json(res, 200, sample("awin-transactions.json"))
    const { asOf, amendmentDates = {}, records } = fixture()
    const dateOf = (record: Record<string, unknown>) =>
      field === "amendment" ? amendmentDates[String(record.id)] : (record[field] as string | null)
    const inWindow = records.filter((record) => {
      if (asOf === undefined) return true
      const at = dateOf(record)
      return typeof at === "string" && at >= start && at <= end
    })
    json(res, 200, inWindow)
  })

/** A network fixture in test/fixtures/networks/, served as if today were its `asOf`. */
export const networkFixture = <T = Record<string, unknown>>(name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/networks/${name}`, import.meta.url), "utf8")) as {
    asOf?: string
    records: Array<T>
  }

const cjSchema = buildSchema(
  readFileSync(new URL("../fixtures/networks/cj-commissions.graphql", import.meta.url), "utf8")
)
const CJ_WINDOWS = [
  ["sincePostingDate", "beforePostingDate", "postingDate"],
  ["sinceEventDate", "beforeEventDate", "eventDate"],
  ["sinceLockingDate", "beforeLockingDate", "lockingDate"]
] as const

/**
 * CJ's Commission Detail API: the GraphQL query is validated against CJ's
 * published types (test/fixtures/networks/cj-commissions.graphql) and
 * executed by graphql-js, so only the fields asked for come back and a query
 * CJ would refuse gets GraphQL errors. Records are filtered by the date
 * windows asked for (since* inclusive, before* exclusive, as CJ documents
 * them), in commissionId order, `pageSize` per call, continued by
 * sinceCommissionId = the previous call's maxCommissionId. A fixture with an
 * asOf (the day it describes; the test moves the service's calendar there)
 * is filtered by the windows; the samples (no asOf) are served whole.
 */
export const cjStub = (
  publisherId: string,
  token: string,
  pageSize: number,
  fixture: () => { asOf?: string; records: Array<Record<string, unknown>> } = () =>
    (
      JSON.parse(sample("cj-commissions.json")) as {
        data: { publisherCommissions: { records: Array<Record<string, unknown>> } }
      }
    ).data.publisherCommissions
) =>
  startStub((request, res) => {
    if (request.headers.authorization !== `Bearer ${token}`)
      return json(res, 401, { errors: [{ message: "Not authorized" }] })
    if (
      request.method !== "POST" ||
      request.path !== "/query" ||
      !/application\/json/.test(request.headers["content-type"] ?? "")
    ) {
      return json(res, 400, { errors: [{ message: "POST application/json to /query" }] })
    }
    const { query, variables } = JSON.parse(request.body) as { query: string; variables: Record<string, unknown> }
    let document
    try {
      document = parse(query)
    } catch (error) {
      return json(res, 400, { errors: [{ message: (error as Error).message }] })
    }
    const invalid = validate(cjSchema, document)
    if (invalid.length > 0) return json(res, 400, { errors: invalid.map((error) => ({ message: error.message })) })
    const publisherCommissions = (args: Record<string, unknown>) => {
      if (!(args.forPublishers as Array<string>).includes(publisherId))
        throw new Error("forPublishers: not a publisher of this account")
      const { asOf, records } = fixture()
      const inWindows = records
        .filter(
          (record) =>
            asOf === undefined ||
            CJ_WINDOWS.every(([since, before, field]) => {
              const at = Date.parse(String(record[field]))
              return (
                (args[since] == null || at >= Date.parse(String(args[since]))) &&
                (args[before] == null || at < Date.parse(String(args[before])))
              )
            })
        )
        .sort((a, b) => String(a.commissionId).localeCompare(String(b.commissionId)))
      const rest =
        args.sinceCommissionId == null
          ? inWindows
          : inWindows.filter((record) => String(record.commissionId) > String(args.sinceCommissionId))
      const page = rest.slice(0, pageSize)
      return {
        count: page.length,
        limit: pageSize,
        payloadComplete: rest.length <= pageSize,
        maxCommissionId: page.at(-1)?.commissionId ?? null,
        records: page
      }
    }
    const result = execute({
      schema: cjSchema,
      document,
      variableValues: variables,
      rootValue: { publisherCommissions }
    })
    json(res, 200, result)
  })

type ImpactFixture = {
  asOf?: string
  lastUpdated?: Record<string, string>
  records: Array<Record<string, unknown>>
}

/** An hourly allowance spent until `until` (epoch ms): Impact answers 429 with the seconds left in its reset header. */
export interface ImpactRateLimit {
  until: number
  /** "X-RateLimit-Reset" (brand API pages) or "RateLimit-Reset" (partner API pages). */
  header: string
}

const impactWindows = [
  ["StartDate", "EndDate", "update"],
  ["LockingDateStart", "LockingDateEnd", "LockingDate"],
  ["ActionDateStart", "ActionDateEnd", "EventDate"]
] as const

/**
 * Impact's actions, each page naming the next in @nextpageuri ("" on the last).
 * Without a fixture, the samples in pages of `pageSize` (Page=1..n). With one,
 * as the partner API documents "List all actions": each filter's start and
 * end go together and are at most 45 days apart, PageSize is at least 2,000
 * (20,000 when absent), a result of more than 10 pages is refused, and
 * StartDate/EndDate filter the last update (the fixture's lastUpdated: a
 * state change is not an update), LockingDateStart/End the LockingDate,
 * ActionDateStart/End the EventDate. While `rateLimit.until` lies ahead,
 * every request gets a 429 with only the reset header.
 */
export const impactStub = (
  accountSid: string,
  authToken: string,
  pageSize: number,
  fixture?: () => ImpactFixture,
  rateLimit: ImpactRateLimit = { until: 0, header: "X-RateLimit-Reset" }
) =>
  startStub((request, res) => {
    if (request.headers.authorization !== `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`) {
      return json(res, 401, { Status: "ERROR", Message: "Authentication failed" })
    }
    if (rateLimit.until > Date.now()) {
      return res
        .writeHead(429, {
          "content-type": "application/json",
          [rateLimit.header.toLowerCase()]: String(Math.ceil((rateLimit.until - Date.now()) / 1000)),
          "x-ratelimit-remaining-hour": "0"
        })
        .end(JSON.stringify({ Status: "ERROR", Message: "Too Many Requests" }))
    }
    if (request.method !== "GET" || request.path !== `/Mediapartners/${accountSid}/Actions`)
      return json(res, 404, { Message: "not found" })
    if (request.headers.accept !== "application/json")
      return res.writeHead(200, { "content-type": "application/xml" }).end("<ImpactRadiusResponse/>")
    const { query } = request
    if (fixture === undefined) {
      if (!isoUtc.test(query.get("StartDate") ?? "") || !isoUtc.test(query.get("EndDate") ?? "")) {
        return json(res, 400, { Status: "ERROR", Message: "StartDate and EndDate are required together" })
      }
      const report = JSON.parse(sample("impact-actions.json")) as { Actions: Array<unknown> }
      return json(res, 200, impactPage(accountSid, query, report.Actions, pageSize))
    }
    const filters = impactWindows.filter(([start, end]) => query.has(start) || query.has(end))
    for (const [start, end] of filters) {
      const from = Date.parse(query.get(start) ?? "")
      const to = Date.parse(query.get(end) ?? "")
      if (Number.isNaN(from) || Number.isNaN(to))
        return json(res, 400, { Status: "ERROR", Message: `${start} and ${end} are required together` })
      if (to - from > 45 * 86_400_000)
        return json(res, 400, { Status: "ERROR", Message: `${start} and ${end} cannot be more than 45 days apart` })
    }
    const size = Number(query.get("PageSize") ?? "20000")
    if (!Number.isInteger(size) || size < 2000)
      return json(res, 400, { Status: "ERROR", Message: "PageSize: the smallest value is 2,000" })
    const { lastUpdated = {}, records } = fixture()
    const dateOf = (record: Record<string, unknown>, field: string) =>
      Date.parse(
        field === "update" ? (lastUpdated[String(record.Id)] ?? String(record.CreationDate)) : String(record[field])
      )
    const matching = records.filter((record) =>
      filters.every(([start, end, field]) => {
        const at = dateOf(record, field)
        return at >= Date.parse(query.get(start)!) && at <= Date.parse(query.get(end)!)
      })
    )
    if (matching.length > 10 * size)
      return json(res, 400, { Status: "ERROR", Message: "more than 10 pages: raise PageSize or shorten the range" })
    json(res, 200, impactPage(accountSid, query, matching, size))
  })

const impactPage = (accountSid: string, query: URLSearchParams, actions: Array<unknown>, pageSize: number) => {
  const page = Number(query.get("Page") ?? "1")
  const pages = Math.max(1, Math.ceil(actions.length / pageSize))
  const next = new URLSearchParams(query)
  next.set("Page", String(page + 1))
  return {
    "@page": String(page),
    "@numpages": String(pages),
    "@pagesize": String(pageSize),
    "@total": String(actions.length),
    "@nextpageuri": page < pages ? `/Mediapartners/${accountSid}/Actions?${next}` : "",
    Actions: actions.slice((page - 1) * pageSize, page * pageSize)
  }
}

/** An Awin-style product data feed: the key in the path, or (second form) in an X-Api-Key header. */
export const productFeedStub = (key: string) =>
  startStub((request, res) => {
    const inPath = request.path.startsWith(`/datafeed/download/apikey/${key}/`)
    const inHeader = request.path === "/feeds/products.csv.gz" && request.headers["x-api-key"] === key
    if (!inPath && !inHeader) return json(res, 401, { error: "invalid key" })
    res
      .writeHead(200, { "content-type": "application/gzip" })
      .end(readFileSync(new URL("../../data/samples/products/eu-awin.csv.gz", import.meta.url)))
  })
