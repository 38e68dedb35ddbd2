import { Effect } from "effect"
import type { Socket } from "node:net"
import { ProgramMatcher } from "../../../links/ProgramMatcher.ts"
import { insertCatalog } from "../../support/catalogFixture.ts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgeConfig } from "../../support/edgeConfig.ts"
import { getJson, postJson } from "../../support/http.ts"
import { openSocket, readUntilClosed } from "../../support/rawHttp.ts"
import { type RunningService, startService } from "../../support/TestService.ts"

// One client cannot hold the server's sockets: a connection cap per address,
// and timeouts for a request's headers, the whole request, a connection that
// never sends one and an idle keep-alive connection. The attacker connects
// from 127.0.0.2, everyone else from 127.0.0.1 (the socket address is what
// the cap counts; X-Forwarded-For plays no part in it).

const ATTACKER = "127.0.0.2"

const anonymousLink = async (service: RunningService) => {
  await service.run(
    Effect.gen(function* () {
      yield* insertCatalog()
      yield* (yield* ProgramMatcher).reload
    })
  )
  const match = await postJson(`${service.url}/api/v1/links/match`, { url: "https://example-store.com/p/edge" })
  return match.body.link.tracking_id as string
}

describe("the per-address connection cap", () => {
  let service: RunningService
  const held: Array<Socket> = []
  beforeAll(async () => {
    service = await startService({ httpEdge: edgeConfig({ maxConnectionsPerIp: 256 }) })
  })
  afterAll(async () => {
    for (const socket of held) socket.destroy()
    await service?.close()
  })

  it("1,100 idle sockets from one address: all but 256 are closed, and another client's redirect still answers 302", async () => {
    const id = await anonymousLink(service)
    for (let i = 0; i < 1_100; i += 100) {
      const batch = await Promise.all(Array.from({ length: 100 }, () => openSocket(service.url, ATTACKER)))
      for (const socket of batch) {
        held.push(socket)
        socket.on("error", () => undefined)
        // flowing, so that the server closing it is seen
        socket.resume()
      }
    }
    const redirect = await fetch(`${service.url}/t/${id}`, { redirect: "manual" })
    expect(redirect.status).toBe(302)
    expect((await getJson(`${service.url}/health`)).status).toBe(200)
    expect((await getJson(`${service.url}/api/deals`)).status).toBeLessThan(500)
    await expect.poll(() => held.filter((socket) => socket.destroyed).length, { timeout: 5_000 }).toBe(1_100 - 256)
    // the ones kept are still open: the cap, not a timeout, closed the others
    expect(held.filter((socket) => !socket.destroyed)).toHaveLength(256)
  })
})

describe("timeouts on slow and idle connections", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService({
      httpEdge: edgeConfig({ headersTimeoutMs: 500, requestTimeoutMs: 1_000, keepAliveTimeoutMs: 300 })
    })
  })
  afterAll(() => service?.close())

  it("a connection that never sends a request is closed after the headers timeout", async () => {
    const answer = await readUntilClosed(await openSocket(service.url))
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(400)
    expect(answer.closedAfterMs).toBeLessThan(3_000)
  })

  it("a drip-fed header is answered 408 with the JSON error body within the headers timeout", async () => {
    const socket = await openSocket(service.url)
    const answer = readUntilClosed(socket)
    socket.write("GET /api/deals HTTP/1.1\r\nHost: localhost\r\n")
    const drip = setInterval(() => socket.writable && socket.write("X-Drip: a\r\n"), 100)
    const { status, headers, body, closedAfterMs } = await answer
    clearInterval(drip)
    expect(status).toBe(408)
    expect(headers).toContain("content-type: application/json")
    expect(JSON.parse(body).error.code).toBe("request_timeout")
    expect(closedAfterMs).toBeLessThan(3_000)
  })

  it("a drip-fed body is answered 408 with the JSON error body within the request timeout", async () => {
    const socket = await openSocket(service.url)
    const answer = readUntilClosed(socket)
    socket.write(
      "POST /api/v1/links/match HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
    )
    const drip = setInterval(() => socket.writable && socket.write(" "), 100)
    const { status, body, closedAfterMs } = await answer
    clearInterval(drip)
    expect(status).toBe(408)
    expect(JSON.parse(body).error.code).toBe("request_timeout")
    expect(closedAfterMs).toBeLessThan(4_000)
  })

  it("an idle keep-alive connection is closed after the keep-alive timeout", async () => {
    const socket = await openSocket(service.url)
    const answer = readUntilClosed(socket)
    socket.write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
    const { status, closedAfterMs } = await answer
    expect(status).toBe(200)
    expect(closedAfterMs).toBeLessThan(2_500)
  })
})
