import { readFileSync } from "node:fs"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runFeed, startWithFeeds } from "./support.ts"

// A feed's credentials stay on its own origin. fetch followed a 302/307 to
// any host and sent it the feed's X-Api-Key header, and a 307 resent a POST
// body holding an {env:...} value. Two loopback servers on different ports
// (two origins): `home` serves the feed and redirects, `elsewhere` records
// whatever reaches it and would serve the same feed, so a followed redirect
// would make the run succeed.

const KEY = "redirect-test-key-5b2e91c0"
const GZIP_FEED = readFileSync(new URL("../../data/samples/products/eu-awin.csv.gz", import.meta.url))

interface Seen {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

const listen = async (
  answer: (seen: Seen, reply: (status: number, headers: Record<string, string>) => void) => void
) => {
  const requests: Array<Seen> = []
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const seen = {
        method: req.method ?? "",
        path: req.url ?? "/",
        headers: req.headers,
        body: Buffer.concat(chunks).toString()
      }
      requests.push(seen)
      answer(seen, (status, headers) => {
        res.writeHead(status, headers)
        res.end(status === 200 ? GZIP_FEED : undefined)
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

let home: Awaited<ReturnType<typeof listen>>
let elsewhere: Awaited<ReturnType<typeof listen>>
let env: Awaited<ReturnType<typeof startWithFeeds>>

beforeAll(async () => {
  process.env.T_REDIRECT_KEY = KEY
  elsewhere = await listen((_seen, reply) => reply(200, { "content-type": "application/gzip" }))
  home = await listen((seen, reply) => {
    if (seen.path === "/moved/products.csv.gz") return reply(302, { location: `${elsewhere.url}/products.csv.gz` })
    if (seen.path === "/moved/query") return reply(307, { location: `${elsewhere.url}/query` })
    if (seen.path === "/same/products.csv.gz") return reply(302, { location: "/feeds/products.csv.gz" })
    if (seen.path === "/feeds/products.csv.gz" && seen.headers["x-api-key"] === KEY) {
      return reply(200, { "content-type": "application/gzip" })
    }
    reply(401, {})
  })
  const keyed = { country: "DE", retries: 0, auth: { type: "header", header: "X-Api-Key", env: "T_REDIRECT_KEY" } }
  env = await startWithFeeds(
    [
      {
        name: "keyed-moved",
        kind: "products",
        format: "awin-csv",
        location: `${home.url}/moved/products.csv.gz`,
        options: keyed
      },
      {
        name: "posted-moved",
        kind: "products",
        format: "awin-csv",
        location: `${home.url}/moved/query`,
        options: { country: "DE", retries: 0, method: "POST", body: { key: "{env:T_REDIRECT_KEY}" } }
      },
      {
        name: "keyed-same-origin",
        kind: "products",
        format: "awin-csv",
        location: `${home.url}/same/products.csv.gz`,
        options: keyed
      }
    ],
    { ingestOnStart: false }
  )
}, 120_000)

afterAll(async () => {
  await env?.close()
  await Promise.all([home?.close(), elsewhere?.close()])
  delete process.env.T_REDIRECT_KEY
})

describe("feed redirects", () => {
  it("refuses a 302 to another origin with a run error naming it; the auth header never leaves home", async () => {
    const run = await runFeed(env.service, "keyed-moved")
    expect(run.status).toBe("failed")
    expect(run.error).toContain(`redirect to another origin, ${elsewhere.url}`)
    expect(run.error).not.toContain(KEY)
    expect(home.requests.find((seen) => seen.path === "/moved/products.csv.gz")?.headers["x-api-key"]).toBe(KEY)
    expect(elsewhere.requests).toEqual([])
  })

  it("refuses a 307 to another origin: the POST body with an {env:...} value is not resent", async () => {
    const run = await runFeed(env.service, "posted-moved")
    expect(run.status).toBe("failed")
    expect(run.error).toContain(`307 redirect to another origin, ${elsewhere.url}`)
    expect(home.requests.find((seen) => seen.path === "/moved/query")?.body).toContain(KEY)
    expect(elsewhere.requests).toEqual([])
  })

  it("follows a redirect on the feed's own origin, credentials included", async () => {
    const run = await runFeed(env.service, "keyed-same-origin")
    expect(run).toMatchObject({ status: "succeeded", error: null })
    expect(run.rowsLoaded).toBeGreaterThan(0)
    expect(home.requests.find((seen) => seen.path === "/feeds/products.csv.gz")?.headers["x-api-key"]).toBe(KEY)
    expect(elsewhere.requests).toEqual([])
  })
})
