import { readFileSync } from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

// Loopback stand-ins for the networks' report APIs, each speaking its
// documented wire format and checking the request shape (method, path,
// query, auth header, body) before serving pages of the sample reports in
// data/samples/reports/. A request of the wrong shape gets the 400 (or 401)
// the real API would give, so a test fails on it instead of passing silently.
//   Awin:   GET /publishers/{publisherId}/transactions/?startDate&endDate&timezone, Bearer token;
//           one JSON array, no paging (help.awin.com/apidocs, "Get List of Transactions").
//   CJ:     POST /query, Bearer personal access token, GraphQL { query, variables };
//           publisherCommissions { payloadComplete maxCommissionId records } paged by sinceCommissionId
//           (developers.cj.com, Commission Detail API).
//   Impact: GET /Mediapartners/{AccountSID}/Actions?StartDate&EndDate, Basic SID:token, Accept JSON;
//           pages linked by @nextpageuri, "" on the last (integrations.impact.com, partner Actions API).

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

const startStub = async (answer: (request: SeenRequest, res: ServerResponse) => void): Promise<Stub> => {
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

const json = (res: ServerResponse, status: number, body: unknown) =>
  res
    .writeHead(status, { "content-type": "application/json" })
    .end(typeof body === "string" ? body : JSON.stringify(body))

const isoSeconds = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/
const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/

export const awinStub = (publisherId: string, token: string) =>
  startStub((request, res) => {
    if (request.headers.authorization !== `Bearer ${token}`) return json(res, 401, { error: "invalid_token" })
    if (request.method !== "GET" || request.path !== `/publishers/${publisherId}/transactions/`)
      return json(res, 404, { error: "not found" })
    const { query } = request
    if (
      !isoSeconds.test(query.get("startDate") ?? "") ||
      !isoSeconds.test(query.get("endDate") ?? "") ||
      query.get("timezone") !== "UTC"
    ) {
      return json(res, 400, { error: "startDate, endDate (yyyy-MM-ddThh:mm:ss) and timezone are required" })
    }
    // The file's own text: numbers such as 4.50 reach the loader exactly as Awin wrote them.
    json(res, 200, sample("awin-transactions.json"))
  })

/** CJ's records in pages of `pageSize`, continued by sinceCommissionId = the previous page's maxCommissionId. */
export const cjStub = (publisherId: string, token: string, pageSize: number) =>
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
    if (!/publisherCommissions\(forPublishers: \[\$publisher\]/.test(query) || variables.publisher !== publisherId) {
      return json(res, 400, { errors: [{ message: "publisherCommissions(forPublishers) is required" }] })
    }
    if (!isoUtc.test(String(variables.from)) || !isoUtc.test(String(variables.to))) {
      return json(res, 400, { errors: [{ message: "sincePostingDate / beforePostingDate must be ISO 8601 UTC" }] })
    }
    const records = (
      JSON.parse(sample("cj-commissions.json")) as {
        data: { publisherCommissions: { records: Array<{ commissionId: string }> } }
      }
    ).data.publisherCommissions.records
    const since = variables.since === null ? -1 : records.findIndex((record) => record.commissionId === variables.since)
    const page = records.slice(since + 1, since + 1 + pageSize)
    json(res, 200, {
      data: {
        publisherCommissions: {
          count: page.length,
          payloadComplete: since + 1 + pageSize >= records.length,
          maxCommissionId: page.at(-1)?.commissionId ?? null,
          records: page
        }
      }
    })
  })

/** Impact's actions in pages of `pageSize` (Page=1..n), each naming the next in @nextpageuri. */
export const impactStub = (accountSid: string, authToken: string, pageSize: number) =>
  startStub((request, res) => {
    if (request.headers.authorization !== `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`) {
      return json(res, 401, { Status: "ERROR", Message: "Authentication failed" })
    }
    if (request.method !== "GET" || request.path !== `/Mediapartners/${accountSid}/Actions`)
      return json(res, 404, { Message: "not found" })
    if (request.headers.accept !== "application/json")
      return res.writeHead(200, { "content-type": "application/xml" }).end("<ImpactRadiusResponse/>")
    const { query } = request
    if (!isoUtc.test(query.get("StartDate") ?? "") || !isoUtc.test(query.get("EndDate") ?? "")) {
      return json(res, 400, { Status: "ERROR", Message: "StartDate and EndDate are required together" })
    }
    const report = JSON.parse(sample("impact-actions.json")) as { Actions: Array<unknown> }
    const page = Number(query.get("Page") ?? "1")
    const pages = Math.ceil(report.Actions.length / pageSize)
    const next = new URLSearchParams(query)
    next.set("Page", String(page + 1))
    json(res, 200, {
      "@page": String(page),
      "@numpages": String(pages),
      "@pagesize": String(pageSize),
      "@total": String(report.Actions.length),
      "@nextpageuri": page < pages ? `/Mediapartners/${accountSid}/Actions?${next}` : "",
      Actions: report.Actions.slice((page - 1) * pageSize, page * pageSize)
    })
  })

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
