import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freeLoopbackPort } from "../../infra/freeLoopbackPort.ts"
import { count, products, query, runFeed, startWithFeeds, tsv } from "./support.ts"
import { tempDir } from "../support/TestService.ts"

// Source faults. The stub is a plain node:http server on a free loopback port
// standing in for a feed host; `mode` decides what the next request gets.
// Every fault must leave the feed's previous data served, unchanged.
type Mode = "good" | "500" | "html" | "html-as-text" | "truncated-gzip" | "missing-columns" | "wrong-delimiter" | "v2"

const V1 = tsv(products(5, 0, "10.00 USD"))
const V2 = tsv(products(4, 0, "11.00 USD"))
const body = (mode: Mode) => {
  switch (mode) {
    case "good":
      return V1
    case "v2":
      return V2
    case "missing-columns":
      return V1.replace(/^id\ttitle/, "id\tname").replace("\tprice\t", "\tcost\t")
    case "wrong-delimiter":
      return V1.replace(/\t/g, ",")
    default:
      return ""
  }
}

describe("feed sources: faults, retries and unchanged-feed skips", () => {
  let stub: Server
  let mode: Mode = "good"
  const requests: Array<{ url: string; ifNoneMatch: string | undefined }> = []
  const files = tempDir("sources-")
  let env: Awaited<ReturnType<typeof startWithFeeds>>
  const ids = () =>
    query<{ id: string; price: string }>(
      env.service,
      "SELECT id, price::VARCHAR AS price FROM products WHERE feed = 'remote' ORDER BY id"
    )

  beforeAll(async () => {
    stub = createServer((req, res) => {
      requests.push({ url: req.url ?? "", ifNoneMatch: req.headers["if-none-match"] as string | undefined })
      if (mode === "500") return res.writeHead(500).end("oops")
      if (mode === "html")
        return res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Please log in</body></html>")
      if (mode === "html-as-text")
        return res
          .writeHead(200, { "content-type": "text/plain" })
          .end("<!DOCTYPE html><html><body>Maintenance</body></html>")
      if (mode === "truncated-gzip") {
        const gz = gzipSync(tsv(products(2000)))
        return res.writeHead(200, { "content-type": "application/gzip" }).end(gz.subarray(0, Math.floor(gz.length / 2)))
      }
      const text = body(mode)
      const etag = `"${mode}-${text.length}"`
      if (req.headers["if-none-match"] === etag) return res.writeHead(304).end()
      res.writeHead(200, { "content-type": "text/tab-separated-values", etag }).end(text)
    })
    await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve))
    const port = (stub.address() as AddressInfo).port
    const closedPort = await freeLoopbackPort()
    writeFileSync(join(files.dir, "local.tsv"), V1)
    env = await startWithFeeds([
      {
        name: "remote",
        kind: "products",
        format: "gmc-tsv",
        location: `http://127.0.0.1:${port}/feed.tsv`,
        options: { store: "Remote", retries: 2, timeoutMs: 3000 }
      },
      {
        name: "unreachable",
        kind: "products",
        format: "gmc-tsv",
        location: `http://127.0.0.1:${closedPort}/feed.tsv`,
        options: { store: "X", retries: 1 }
      },
      {
        name: "local",
        kind: "products",
        format: "gmc-tsv",
        location: `file://${join(files.dir, "local.tsv")}`,
        options: { store: "Local" }
      }
    ])
    mode = "good"
    expect((await runFeed(env.service, "remote")).status).toBe("succeeded")
  })
  afterAll(async () => {
    await env.close()
    await new Promise((resolve) => stub.close(resolve))
    files.rm()
  })

  const expectFault = async (fault: Mode, message: RegExp) => {
    mode = fault
    const before = await ids()
    const run = await runFeed(env.service, "remote")
    expect(run.status).toBe("failed")
    expect(run.error).toMatch(message)
    expect(await ids()).toEqual(before)
    expect(before).toHaveLength(5)
  }

  it("retries an HTTP 500 with backoff, then fails the run", async () => {
    requests.length = 0
    await expectFault("500", /HTTP 500/)
    expect(requests).toHaveLength(3) // 1 attempt + 2 retries
  })

  it("fails on an HTML page, announced or not", async () => {
    await expectFault("html", /HTML page/)
    await expectFault("html-as-text", /HTML page/)
  })

  it("fails on a truncated gzip", () => expectFault("truncated-gzip", /truncated or corrupt gzip/))

  it("fails on missing required columns", () =>
    expectFault("missing-columns", /missing required columns: title, price/))

  it("fails on a wrong delimiter, and says so", () =>
    expectFault("wrong-delimiter", /wrong delimiter\?.*","-separated/))

  it("fails when the host is unreachable", async () => {
    const run = await runFeed(env.service, "unreachable")
    expect(run).toMatchObject({ status: "failed" })
    expect(run.error).toMatch(/cannot fetch .*ECONNREFUSED/)
  })

  it("skips an unchanged HTTP feed with a conditional GET (304), and loads it when it changes", async () => {
    // the last success (beforeAll) stored the ETag; the failed runs since did not touch it
    mode = "good"
    requests.length = 0
    const skipped = await runFeed(env.service, "remote")
    expect(skipped.status).toBe("skipped")
    expect(requests[0].ifNoneMatch).toBe(`"good-${V1.length}"`)
    mode = "v2"
    expect(await runFeed(env.service, "remote")).toMatchObject({ status: "succeeded", rowsLoaded: 4 })
    expect((await ids()).map((r) => r.price)).toEqual(["11.0000", "11.0000", "11.0000", "11.0000"])
  })

  it("skips an unchanged local file by its sha256, and loads it when it changes", async () => {
    expect((await runFeed(env.service, "local")).status).toBe("succeeded")
    expect((await runFeed(env.service, "local")).status).toBe("skipped")
    writeFileSync(join(files.dir, "local.tsv"), V2)
    expect((await runFeed(env.service, "local")).status).toBe("succeeded")
    expect(await count(env.service, "SELECT count(*) AS n FROM products WHERE feed = 'local'")).toBe(4)
    const runs = await query<{ status: string }>(
      env.service,
      "SELECT status FROM pipeline_runs WHERE feed = 'local' ORDER BY started_at"
    )
    expect(runs.map((r) => r.status)).toEqual(["succeeded", "skipped", "succeeded"])
  })
})
