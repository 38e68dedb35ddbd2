import { describe, expect, it } from "vitest"
import { feedDefinition } from "../../pipelines/FeedConfig.ts"
import {
  authHeaders,
  fillBody,
  fillLocation,
  formatInstant,
  readEnv,
  redactor,
  requiredEnv,
  windowBounds
} from "../../pipelines/FeedRequest.ts"
import { retryAfterMs } from "../../pipelines/HttpFetch.ts"

// The plain-value half of API sources: placeholders, windows, credentials
// and redaction. The HTTP half runs end to end in networkApis.test.ts.
const NOW = new Date("2026-11-24T09:30:15.250Z")
const DAY = 86_400_000

describe("API source requests", () => {
  it("names every variable a feed needs, from its auth and its {env:...} placeholders", () => {
    const feed = feedDefinition({
      name: "impact",
      kind: "conversions",
      format: "impact-actions",
      location: "https://api.example/Mediapartners/{env:SID}/Actions?StartDate={from}&EndDate={to}",
      options: { auth: { type: "basic", userEnv: "SID", passwordEnv: "TOKEN" }, window: { days: 30 }, body: undefined }
    })
    expect(requiredEnv(feed).sort()).toEqual(["SID", "TOKEN"])
    expect(readEnv(feed, { SID: "IRabc" }).missing).toEqual(["TOKEN"])
    expect(authHeaders(feed.options.auth, { SID: "IRabc", TOKEN: "s3cret" })).toEqual({
      authorization: `Basic ${Buffer.from("IRabc:s3cret").toString("base64")}`
    })
    expect(authHeaders({ type: "header", header: "X-Api-Key", env: "K" }, { K: "v" })).toEqual({ "x-api-key": "v" })
    expect(authHeaders({ type: "bearer", env: "K" }, { K: "v" })).toEqual({ authorization: "Bearer v" })
  })

  it("writes window bounds in each network's format", () => {
    expect(formatInstant(NOW, "date")).toBe("2026-11-24")
    expect(formatInstant(NOW, "datetime")).toBe("2026-11-24T09:30:15")
    expect(formatInstant(NOW, "datetime-utc")).toBe("2026-11-24T09:30:15Z")
    expect(formatInstant(NOW, "unix")).toBe("1795512615")
    expect(formatInstant(NOW, "unix-ms")).toBe("1795512615250")
  })

  it("covers the last N days, reaching back over an outage up to maxDays", () => {
    const window = { days: 30, maxDays: 45, format: "date" as const }
    expect(windowBounds(window, NOW, undefined).from.getTime()).toBe(NOW.getTime() - 30 * DAY)
    expect(windowBounds(window, NOW, new Date(NOW.getTime() - 2 * DAY)).from.getTime()).toBe(NOW.getTime() - 30 * DAY)
    // last success 40 days ago: reach back to it, less a day of overlap
    expect(windowBounds(window, NOW, new Date(NOW.getTime() - 40 * DAY)).from.getTime()).toBe(NOW.getTime() - 41 * DAY)
    // but never past the network's limit
    expect(windowBounds(window, NOW, new Date(NOW.getTime() - 90 * DAY)).from.getTime()).toBe(NOW.getTime() - 45 * DAY)
  })

  it("fills locations URL-encoded and bodies with typed values (null for the first cursor)", () => {
    const fill = { from: "2026-10-25T00:00:00Z", to: "2026-11-24T00:00:00Z", page: 2, env: { KEY: "a/b c" } }
    expect(fillLocation("https://x.example/feed/{env:KEY}?from={from}&p={page}", fill)).toBe(
      "https://x.example/feed/a%2Fb%20c?from=2026-10-25T00%3A00%3A00Z&p=2"
    )
    expect(
      fillBody(
        {
          query: "q($since: String)",
          variables: { since: "{cursor}", from: "{from}", page: "{page}", note: "page {page}" }
        },
        fill
      )
    ).toEqual({
      query: "q($since: String)",
      variables: { since: null, from: "2026-10-25T00:00:00Z", page: 2, note: "page 2" }
    })
    expect(fillBody({ since: "{cursor}" }, { ...fill, cursor: "3081120003" })).toEqual({ since: "3081120003" })
  })

  it("redacts variable values (raw and URL-encoded) and key-named query parameters", () => {
    const redact = redactor(["s3cr3t/key", "IRsid42"])
    expect(
      redact("https://x.example/apikey/s3cr3t%2Fkey/Mediapartners/IRsid42/Actions?accessToken=abc&page=2&api_key=zz")
    ).toBe("https://x.example/apikey/***/Mediapartners/***/Actions?accessToken=***&page=2&api_key=***")
    expect(redact("token s3cr3t/key refused")).toBe("token *** refused")
  })

  it("reads Retry-After in seconds or as an HTTP date", () => {
    expect(retryAfterMs("2")).toBe(2000)
    expect(
      retryAfterMs(new Date(Date.UTC(2026, 10, 24, 9, 31, 15)).toUTCString(), Date.UTC(2026, 10, 24, 9, 30, 15))
    ).toBe(60_000)
    expect(retryAfterMs(null)).toBeUndefined()
    expect(retryAfterMs("soon")).toBeUndefined()
  })

  it("rejects a body without POST, {from} without a window, and API options on a file", () => {
    expect(() =>
      feedDefinition({
        name: "a",
        kind: "conversions",
        format: "cj-commissions",
        location: "https://x.example/q",
        options: { body: { q: 1 } }
      })
    ).toThrow(/a body needs options.method/)
    expect(() =>
      feedDefinition({
        name: "b",
        kind: "conversions",
        format: "cj-commissions",
        location: "https://x.example/q?from={from}"
      })
    ).toThrow(/need options.window/)
    expect(() =>
      feedDefinition({ name: "c", kind: "products", format: "gmc-tsv", location: "data/{env:FEED}.tsv" })
    ).toThrow(/must be an http\(s\):\/\/ URL for an API source/)
  })
})
