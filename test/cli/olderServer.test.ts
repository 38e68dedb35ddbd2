import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tempDir } from "../support/TestService.ts"
import { cleanEnv, runCli } from "./partnerCli.ts"

// `aff` decodes every answer with the API contract, and still works against
// a server released before fields the contract has since gained
// (cli/partner/olderServers.ts). The server here is a loopback stub that
// answers with fixed bodies of those older shapes: an old release cannot be
// started from this tree, and the shapes are what it sent.

const KEY = `ak_${"o".repeat(43)}`

/** GET /api/v1/links of a server before link names, states, programme numbers and catalog following. */
const OLD_LINK = {
  tracking_id: "OldLink123",
  tracking_url: "http://127.0.0.1/t/OldLink123",
  affiliate_url: "https://www.awin1.com/cread.php?awinmid=7050&clickref=OldLink123",
  original_url: "https://www.example-shop.test/p/1",
  destination_url: "https://www.example-shop.test/p/1",
  program_id: "awin:7050",
  network_id: "awin",
  tag: "old-partner",
  source: "match",
  created_at: "2026-11-22T10:00:00.000Z"
}
const OLD_LINKS_PAGE = { data: [OLD_LINK], pagination: { limit: 20, offset: 0, total: 1, next_offset: null } }

/** POST /api/v1/links/match of a server before markets, programme numbers and deep-link rules. */
const OLD_MATCH = {
  matched: true,
  created: true,
  program: {
    id: "awin:7050",
    name: "Example Shop",
    network: "awin",
    domain: "example-shop.test",
    commission_type: "CPS"
  },
  link: {
    tracking_id: "OldLink123",
    tracking_url: "http://127.0.0.1/t/OldLink123",
    affiliate_url: OLD_LINK.affiliate_url,
    original_url: OLD_LINK.original_url,
    destination_url: OLD_LINK.destination_url
  }
}
const OLD_NO_MATCH = {
  matched: false,
  reason: "no_program",
  original_url: "https://nowhere.test/",
  destination_url: "https://nowhere.test/"
}

type Answer = readonly [status: number, body: unknown]

describe("aff against a server of an older release", () => {
  let server: Server
  let url: string
  let home: ReturnType<typeof tempDir>
  const answers = new Map<string, Answer>()
  const cli = (...args: Array<string>) =>
    runCli(args, cleanEnv(home.dir, { AFF_SERVER: url, AFF_API_KEY: KEY, AFF_CONFIG: `${home.dir}/none.json` }))

  beforeAll(async () => {
    home = tempDir("aff-older-")
    server = createServer((request, response) => {
      const key = `${request.method} ${request.url}`
      let body = ""
      request.on("data", (chunk) => (body += chunk))
      request.on("end", () => {
        const url = request.method === "POST" ? (JSON.parse(body) as { url: string }).url : undefined
        const [status, answer] = answers.get(url === undefined ? key : `${key} ${url}`) ?? [
          404,
          { error: { code: "not_found", message: key } }
        ]
        response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(answer))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    answers.set("GET /api/v1/links", [200, OLD_LINKS_PAGE])
    answers.set("POST /api/v1/links/match https://www.example-shop.test/p/1", [200, OLD_MATCH])
    answers.set("POST /api/v1/links/match https://nowhere.test/", [200, OLD_NO_MATCH])
  })
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve))
    home?.rm()
  })

  it("links: a link without name, state and status is shown unnamed, active and with its programme", async () => {
    const run = await cli("links")
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.stdout.split("\n")[2]).toMatch(
      /^http:\/\/127\.0\.0\.1\/t\/OldLink123\s+active\s+awin:7050\s+awin\s+match\s+2026-11-22\s+https:\/\/www\.example-shop\.test\/p\/1$/
    )
  })

  it("links --json prints the older server's body as it was sent, nothing filled in", async () => {
    const run = await cli("links", "--json")
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual(OLD_LINKS_PAGE)
  })

  it("match: an answer without market, programme number and deep-link fields still gives the tracking URL", async () => {
    const matched = await cli("match", "https://www.example-shop.test/p/1")
    expect(matched.stderr).toBe("")
    expect(matched.code).toBe(0)
    expect(matched.stdout).toBe("http://127.0.0.1/t/OldLink123\n")
    const unmatched = await cli("match", "https://nowhere.test/")
    expect(unmatched.code).toBe(3)
    expect(unmatched.stderr).toBe("aff: Not matched (no_program): no affiliate programme covers this URL\n")
  })

  it("an answer the contract does not allow is an unexpected response (exit 2), not a guess", async () => {
    answers.set("GET /api/v1/links", [200, { ...OLD_LINKS_PAGE, data: [{ ...OLD_LINK, state: "frozen" }] }])
    const unknownState = await cli("links")
    answers.set("GET /api/v1/links", [200, { ...OLD_LINKS_PAGE, data: [{ ...OLD_LINK, tracking_url: undefined }] }])
    const noTrackingUrl = await cli("links")
    answers.set("GET /api/v1/links", [200, OLD_LINKS_PAGE])
    for (const run of [unknownState, noTrackingUrl]) {
      expect(run.code).toBe(2)
      expect(run.stdout).toBe("")
      expect(run.stderr).toMatch(
        /^aff: Unexpected response from http:\/\/127\.0\.0\.1:\d+\/api\/v1\/links.*expected shape/
      )
    }
    expect(unknownState.stderr).toContain("state")
    expect(noTrackingUrl.stderr).toContain("tracking_url")
  })
})
