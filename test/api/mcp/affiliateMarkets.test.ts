import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ProgramMatcher } from "../../../links/ProgramMatcher.ts"
import { insertCatalog, NETWORKS, nikeProgrammes } from "../../support/catalogFixture.ts"
import { postJson } from "../../support/http.ts"
import { startMarketsService } from "../../support/marketsCatalog.ts"
import type { RunningService } from "../../support/TestService.ts"
import { call, httpClient } from "./mcpClient.ts"

// The shopper's country on the MCP tools without a UCP context (the official
// SDK client over Streamable HTTP): list_deals and match_link take a
// `country` argument read as /api/deals and POST /api/v1/links/match read
// theirs; a country we have no market for is refused naming the argument.

const NIKE = nikeProgrammes()

describe("MCP list_deals and match_link: the shopper's country", () => {
  let service: RunningService
  let client: Client
  let apiKey: string
  beforeAll(async () => {
    service = await startMarketsService()
    await service.run(
      Effect.gen(function* () {
        yield* insertCatalog(NETWORKS, NIKE)
        yield* (yield* ProgramMatcher).reload
      })
    )
    const registration = await postJson(`${service.url}/api/v1/partners/register`, { name: "M", email: "m@x.example" })
    apiKey = registration.body.api_key
    client = await httpClient(service.url, apiKey)
  })
  afterAll(async () => {
    await client.close()
    await service.close()
  })

  it("list_deals with country FR lists only deals sold in France, and says its market", async () => {
    const fr = await call(client, "list_deals", { country: "FR" })
    expect(fr.isError).toBe(false)
    expect(fr.body.count).toBeGreaterThan(0)
    expect(JSON.stringify(fr.body.deals)).toContain("Fnac")
    expect(JSON.stringify(fr.body.deals)).not.toContain("MediaMarkt")
    expect(fr.body.market).toMatchObject({ country: "FR", currency: "EUR", currencies: ["EUR"], countries: ["FR"] })
    const all = await call(client, "list_deals", {})
    expect(all.body.market.country).toBeNull()
  })

  it("match_link with country US gets the US programme of a nike.com URL naming no country", async () => {
    const us = await call(client, "match_link", { url: "https://www.nike.com/t/vomero-18", country: "US" })
    expect(us.isError).toBe(false)
    expect(us.body.program).toMatchObject({ name: "Nike US", country: "US" })
    expect(us.body.market).toEqual({ country: "US", source: "parameter" })
    const none = await call(client, "match_link", { url: "https://www.nike.com/t/pegasus-41" })
    expect(none.body.program).toMatchObject({ name: "Nike UK" })
    expect(none.body.market).toBeNull()
  })

  it("match_link brings a link its partner deleted back, active, as POST /api/v1/links/match does", async () => {
    const made = await call(client, "match_link", { url: "https://www.nike.com/t/air-zoom", country: "US" })
    const id = made.body.link.tracking_id
    const removed = await fetch(`${service.url}/api/v1/links/${id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${apiKey}` }
    })
    expect(removed.status).toBe(200)
    const gone = await fetch(`${service.url}/t/${id}`, { redirect: "manual" })
    expect(gone.status).toBe(410)
    const again = await call(client, "match_link", { url: "https://www.nike.com/t/air-zoom", country: "US" })
    expect(again.body).toMatchObject({ matched: true, created: false, link: { tracking_id: id } })
    const back = await fetch(`${service.url}/t/${id}`, { redirect: "manual" })
    expect(back.status).toBe(302) // before: still 410, the MCP tool returned a deleted link
  })

  it("an unknown country is invalid_parameter naming the argument", async () => {
    for (const [tool, args] of [
      ["list_deals", { country: "ZZ" }],
      ["match_link", { url: "https://www.nike.com/t/x", country: "GBR" }]
    ] as const) {
      const answer = await call(client, tool, args)
      expect(answer.isError, tool).toBe(true)
      expect(answer.body.error.code, tool).toBe("invalid_parameter")
      expect(answer.body.error.message, tool).toContain("'country'")
      expect(answer.body.error.message, tool).toContain("ISO 3166-1 alpha-2")
    }
  })
})
