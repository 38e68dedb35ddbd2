import http from "node:http"
import net from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { type Http1Answer, Http1Pool } from "../../infra/http1Pool.ts"

// The keep-alive client Meilisearch requests go through (infra/http1Pool.ts),
// against node's own HTTP server and against raw sockets writing the framings
// and failures a server may produce. Every Meilisearch suite exercises it too.

const closers: Array<() => void> = []
afterEach(() => {
  for (const close of closers.splice(0)) close()
})

const listen = async (server: net.Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  closers.push(() => {
    server.close()
    if (server instanceof http.Server) server.closeAllConnections()
  })
  return (server.address() as net.AddressInfo).port
}
/** A server speaking raw bytes: `answer` gets each connection's socket and its n-th request (from 0). */
const rawServer = (answer: (socket: net.Socket, request: number) => void) => {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    sockets.add(socket)
    let requests = 0
    let seen = ""
    socket.on("data", (data) => {
      seen += data.toString("latin1")
      // requests here have no body: one head is one request
      while (seen.includes("\r\n\r\n")) {
        seen = seen.slice(seen.indexOf("\r\n\r\n") + 4)
        answer(socket, requests++)
      }
    })
    socket.on("error", () => undefined)
  })
  closers.push(() => {
    for (const socket of sockets) socket.destroy()
  })
  return server
}
const poolFor = (port: number, maxSockets?: number) => {
  const pool = new Http1Pool("127.0.0.1", port, maxSockets)
  closers.push(() => pool.destroy())
  return pool
}
const get = (pool: Http1Pool, path = "/", repeatable = true) =>
  new Promise<Http1Answer>((resolve, reject) =>
    pool.request(
      { head: `GET ${path} HTTP/1.1\r\nhost: test\r\n\r\n`, body: undefined, repeatable },
      (error, answer) => (answer === undefined ? reject(error) : resolve(answer))
    )
  )
const post = (pool: Http1Pool, body: string) =>
  new Promise<Http1Answer>((resolve, reject) =>
    pool.request(
      {
        head: `POST /echo HTTP/1.1\r\nhost: test\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`,
        body,
        repeatable: false
      },
      (error, answer) => (answer === undefined ? reject(error) : resolve(answer))
    )
  )

describe("Http1Pool against node:http", () => {
  it("reads content-length and chunked answers, keeps one socket for sequential requests, and passes statuses through", async () => {
    const connections = new Set<unknown>()
    const port = await listen(
      http.createServer((req, res) => {
        connections.add(req.socket)
        const chunks: Array<Buffer> = []
        req.on("data", (chunk: Buffer) => chunks.push(chunk))
        req.on("end", () => {
          if (req.url === "/echo")
            return res.writeHead(200, { "content-type": "application/json" }).end(Buffer.concat(chunks))
          if (req.url === "/missing") return res.writeHead(404).end('{"code":"index_not_found"}')
          if (req.url === "/empty") return res.writeHead(204).end()
          // chunked: several writes, a multi-byte character split across two of them
          res.writeHead(200)
          const euro = Buffer.from("€")
          res.write(Buffer.concat([Buffer.from("price: 5"), euro.subarray(0, 1)]))
          setTimeout(() => res.end(Buffer.concat([euro.subarray(1), Buffer.from(" ".repeat(100_000) + "end")])), 5)
        })
      })
    )
    const pool = poolFor(port)
    // a search-sized body goes out joined to its head, a batch-sized one after it
    for (const size of [10, 200_000]) {
      const body = JSON.stringify({ q: "earbuds £", filter: "price <= 100", text: "x".repeat(size) })
      const echoed = await post(pool, body)
      expect(echoed.status).toBe(200)
      expect(echoed.body.toString("utf8")).toBe(body)
    }

    const chunked = await get(pool, "/chunked")
    expect(chunked.status).toBe(200)
    expect(chunked.body.toString("utf8")).toBe(`price: 5€${" ".repeat(100_000)}end`)

    const missing = await get(pool, "/missing")
    expect(missing.status).toBe(404)
    expect(JSON.parse(missing.body.toString("utf8"))).toEqual({ code: "index_not_found" })

    const empty = await get(pool, "/empty")
    expect(empty.status).toBe(204)
    expect(empty.body.length).toBe(0)
    expect(connections.size).toBe(1)
  })

  it("opens at most maxSockets, queues the rest, and answers every request", async () => {
    const connections = new Set<unknown>()
    let running = 0
    let most = 0
    const port = await listen(
      http.createServer((req, res) => {
        connections.add(req.socket)
        running++
        most = Math.max(most, running)
        setTimeout(() => {
          running--
          res.end(req.url)
        }, 10)
      })
    )
    const pool = poolFor(port, 2)
    const answers = await Promise.all(Array.from({ length: 9 }, (_, i) => get(pool, `/${i}`)))
    expect(answers.map((answer) => answer.body.toString())).toEqual(Array.from({ length: 9 }, (_, i) => `/${i}`))
    expect(connections.size).toBe(2)
    expect(most).toBe(2)
  })

  it("drops an idle socket the server closed after its keep-alive timeout; the next request is answered", async () => {
    const server = http.createServer((req, res) => res.end("ok"))
    server.keepAliveTimeout = 50
    const port = await listen(server)
    const pool = poolFor(port)
    expect((await get(pool)).body.toString()).toBe("ok")
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect((await get(pool)).body.toString()).toBe("ok")
  })

  it("does not call back an abandoned request, and the pool goes on serving", async () => {
    const port = await listen(
      http.createServer((req, res) => (req.url === "/slow" ? setTimeout(() => res.end("late"), 100) : res.end("ok")))
    )
    const pool = poolFor(port)
    let called = false
    const abandon = pool.request(
      { head: "GET /slow HTTP/1.1\r\nhost: test\r\n\r\n", body: undefined, repeatable: true },
      () => {
        called = true
      }
    )
    await new Promise((resolve) => setTimeout(resolve, 20))
    abandon()
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(called).toBe(false)
    expect((await get(pool)).body.toString()).toBe("ok")
  })
})

describe("Http1Pool against raw sockets", () => {
  it("reads a chunked answer written a byte at a time, with chunk extensions and trailers", async () => {
    const answer =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: 1\r\n\r\n"
    const port = await listen(
      rawServer((socket) => {
        let i = 0
        const next = () => {
          if (i < answer.length) socket.write(answer[i++], () => setImmediate(next))
        }
        next()
      })
    )
    const pool = poolFor(port)
    const first = await get(pool)
    expect(first.body.toString()).toBe("hello, world")
    // the socket is whole afterwards: a second request on it is answered
    expect((await get(pool)).body.toString()).toBe("hello, world")
  })

  it("skips an interim 100 answer, and reads an HTTP/1.0 body until the server closes", async () => {
    const port = await listen(
      rawServer((socket) => {
        socket.write("HTTP/1.1 100 Continue\r\n\r\n")
        socket.end("HTTP/1.0 200 OK\r\ncontent-type: text/plain\r\n\r\nall of it")
      })
    )
    const answer = await get(poolFor(port))
    expect(answer.status).toBe(200)
    expect(answer.body.toString()).toBe("all of it")
  })

  it("does not reuse a socket the answer said it closes", async () => {
    let connections = 0
    const server = rawServer((socket) =>
      socket.write("HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 2\r\n\r\nok")
    )
    server.on("connection", () => connections++)
    const pool = poolFor(await listen(server))
    await get(pool)
    await get(pool)
    expect(connections).toBe(2)
  })

  it("retries a repeatable request once when a reused socket closes before answering; fails the others", async () => {
    // every connection answers its first request and closes on its second without a byte
    const reused = rawServer((socket, request) =>
      request === 0 ? socket.write("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok") : socket.destroy()
    )
    const pool = poolFor(await listen(reused))
    expect((await get(pool)).body.toString()).toBe("ok")
    expect((await get(pool)).body.toString()).toBe("ok")
    // not repeatable (it may have changed something): the failure is the caller's to see
    await expect(get(pool, "/", false)).rejects.toThrow(/closed the connection before answering|ECONNRESET/)

    const mute = rawServer((socket) => socket.destroy())
    await expect(get(poolFor(await listen(mute)))).rejects.toThrow(/closed the connection before answering|ECONNRESET/)
  })

  it("fails, without crashing, on a malformed answer, a connection refused and a body cut short", async () => {
    const garbage = await listen(rawServer((socket) => socket.write("SMTP ready\r\n\r\n")))
    await expect(get(poolFor(garbage))).rejects.toThrow(/not an HTTP\/1 status line/)

    const badLength = await listen(rawServer((socket) => socket.write("HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n")))
    await expect(get(poolFor(badLength))).rejects.toThrow(/bad content-length/)

    const badChunk = await listen(
      rawServer((socket) => socket.write("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n"))
    )
    await expect(get(poolFor(badChunk))).rejects.toThrow(/bad chunk size line/)

    const endless = await listen(rawServer((socket) => socket.write(`HTTP/1.1 200 OK\r\nx: ${"a".repeat(70_000)}`)))
    await expect(get(poolFor(endless))).rejects.toThrow(/response head over 65536 bytes/)

    const cut = await listen(rawServer((socket) => socket.end("HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nshort")))
    await expect(get(poolFor(cut))).rejects.toThrow(/closed the connection before its answer was whole/)

    const closed = net.createServer()
    const refused = await listen(closed)
    closed.close()
    await expect(get(poolFor(refused))).rejects.toThrow(/ECONNREFUSED/)
  })
})
