import { expect, it } from "vitest"
import { isRepeatable, meiliTarget, sendMeiliRequest } from "../../infra/meiliHttpClient.ts"

// What the Meilisearch transport sends again after a stale keep-alive socket,
// and what it refuses to send. Its requests themselves run in every
// Meilisearch suite, against the real server.

it("sends again only the requests that read: searches, fetches, gets", () => {
  for (const path of [
    "/indexes/products/search",
    "/multi-search",
    "/indexes/products/facet-search",
    "/indexes/products/similar",
    "/indexes/products/documents/fetch"
  ])
    expect(isRepeatable("POST", path), path).toBe(true)
  expect(isRepeatable("GET", "/tasks/12")).toBe(true)
  for (const [method, path] of [
    ["POST", "/indexes/products/documents"],
    ["POST", "/swap-indexes"],
    ["POST", "/indexes"],
    ["PUT", "/indexes/products/documents"],
    ["PATCH", "/indexes/products/settings"],
    ["DELETE", "/indexes/products"],
    ["POST", "/indexes/search/documents"]
  ])
    expect(isRepeatable(method, path), `${method} ${path}`).toBe(false)
})

it("refuses a header value with a line break instead of sending it as a header of its own", () => {
  const target = meiliTarget(new URL("http://127.0.0.1:9/indexes/products/search"))
  expect(() =>
    sendMeiliRequest(target, "POST", { authorization: "Bearer key\r\nx-injected: 1" }, "{}", 1_000, () => undefined)
  ).toThrow(/invalid character in header authorization/)
})
