import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sendRaw } from "../fuzz/raw.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// A path with a malformed percent-escape (/deals/%zz) cannot be decoded, so it
// matches no route, not even the catch-all 404: it must still get our 404
// (JSON, or the HTML page for a browser), not the router's empty one.
// Sent over a raw socket: an HTTP client library may re-encode the path.
describe("paths the router cannot decode", () => {
  let service: RunningService
  let port: number
  beforeAll(async () => {
    service = await startService()
    port = Number(new URL(service.url).port)
  })
  afterAll(() => service.close())

  const get = (path: string, accept = "application/json") =>
    sendRaw(port, {
      name: path,
      chunks: [`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: ${accept}\r\nConnection: close\r\n\r\n`]
    })

  it.each(["/deals/%zz", "/admin/runs/%FF", "/nothing/%E0%A4", "/api/v1/links/%"])(
    "GET %s answers a JSON 404 naming the path",
    async (path) => {
      const answer = await get(path)
      expect(answer.status).toBe(404)
      expect(answer.headers["content-type"]).toContain("application/json")
      const body = JSON.parse(answer.body.toString("utf8"))
      expect(body).toEqual({ error: { code: "not_found", message: expect.stringContaining(path) } })
    }
  )

  it("answers a browser the HTML not-found page", async () => {
    const answer = await get("/deals/%zz", "text/html")
    expect(answer.status).toBe(404)
    expect(answer.headers["content-type"]).toContain("text/html")
    expect(answer.body.toString("utf8")).toContain("Page not found")
  })
})
