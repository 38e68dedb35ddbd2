import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from "node:http"
import type { Socket } from "node:net"
import type { Duplex } from "node:stream"
import type { HttpEdgeConfig } from "../../infra/AppConfig.ts"
import type { HotPathHandler } from "../lateHotPath.ts"

// The node:http server every request meets first. It bounds what one client
// can hold: a request's headers must arrive within headersTimeout and the
// whole request within requestTimeout (a drip-fed header or body no longer
// holds a socket for minutes), a connection that never sends a request is
// closed after headersTimeout too (node only times requests that began), an
// idle keep-alive connection after keepAliveTimeout, and one address holds at
// most maxConnectionsPerIp connections (1,000 idle sockets from one client no
// longer starve everyone else). Answers node's parser writes itself (400,
// 408, 431, 417) carry our JSON error body like every other answer.

/**
 * What the edge does with each request before the hot paths, at once (it
 * never waits: the limits it checks are in this process's memory): true when
 * it answered the request itself.
 */
export type EdgeGuard = (req: IncomingMessage, res: ServerResponse) => boolean

/**
 * The same for a request with an Upgrade header (node emits those apart,
 * and the router serves the ones that are not WebSockets like any request):
 * true when it answered on `socket` itself.
 */
export type EdgeUpgradeGuard = (req: IncomingMessage, socket: Duplex) => boolean

export interface EdgeGuards {
  readonly request: EdgeGuard
  readonly upgrade: EdgeUpgradeGuard
}

const errorBody = (code: string, message: string) => JSON.stringify({ error: { code, message } })

/** A complete response written on a socket the parser gave up on; the connection closes after it. */
export const rawResponse = (status: number, body: string, retryAfterSeconds?: number) =>
  `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\n` +
  `content-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\n` +
  `${retryAfterSeconds === undefined ? "" : `retry-after: ${retryAfterSeconds}\r\n`}connection: close\r\n\r\n${body}`

const parserAnswers = (edge: HttpEdgeConfig) => ({
  headersTooLarge: rawResponse(
    431,
    errorBody(
      "headers_too_large",
      "the request line and headers are larger than 16 KB; send a shorter URL or fewer headers"
    )
  ),
  timeout: rawResponse(
    408,
    errorBody(
      "request_timeout",
      `the request did not arrive in time: headers within ${edge.headersTimeoutMs / 1000} s, the whole request within ${edge.requestTimeoutMs / 1000} s`
    )
  ),
  chunkExtensions: rawResponse(413, errorBody("payload_too_large", "chunk extensions larger than node allows")),
  badRequest: (reason: string) =>
    rawResponse(400, errorBody("bad_request", `the request is not valid HTTP/1.1 (${reason})`))
})

const EXPECTATION_FAILED = errorBody(
  "expectation_failed",
  "the Expect header is not supported; only 'Expect: 100-continue' is"
)

const MISSING_HOST = errorBody("bad_request", "an HTTP/1.1 request needs a Host header")

/** HTTP/1.1 requires Host (RFC 9112, 3.2); read from rawHeaders, where it is nearly always first. */
const lacksHost = (request: IncomingMessage) => {
  if (request.httpVersionMajor !== 1 || request.httpVersionMinor !== 1) return false
  const raw = request.rawHeaders
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === "host") return false
  return true
}

const refuseWithoutHost = (res: ServerResponse) => {
  res
    .writeHead(400, {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(MISSING_HOST)),
      connection: "close"
    })
    .end(MISSING_HOST)
  return true
}

/** Per connection: still waiting for its first request (its idle timer armed). */
const AWAITING_FIRST_REQUEST = Symbol("awaitingFirstRequest")
type EdgeSocket = Socket & { [AWAITING_FIRST_REQUEST]?: boolean; _httpMessage?: ServerResponse | null }

/** A request began on its connection: the idle timer of a new connection is done with. */
const requestBegan = (request: IncomingMessage) => {
  const socket = request.socket as EdgeSocket
  if (socket[AWAITING_FIRST_REQUEST] === true) {
    // A request may take long to answer (an ingest run): the idle timer was for the wait before it.
    socket[AWAITING_FIRST_REQUEST] = false
    socket.setTimeout(0)
  }
}

/**
 * A node:http server hardened by `edge`, whose requests meet `guard`, then
 * `hotPaths`; what both decline is emitted as usual, to the Effect router.
 */
export const edgeServer = (edge: HttpEdgeConfig, guards: EdgeGuards, hotPaths: HotPathHandler): Server => {
  // node refuses a headers timeout longer than the request timeout
  const headersTimeout = Math.min(edge.headersTimeoutMs, edge.requestTimeoutMs)
  const server = createServer({
    headersTimeout,
    requestTimeout: edge.requestTimeoutMs,
    keepAliveTimeout: edge.keepAliveTimeoutMs,
    // node checks both timeouts on this interval (30 s by default, which would triple a 10 s limit)
    connectionsCheckingInterval: Math.min(1_000, headersTimeout),
    // node would refuse an HTTP/1.1 request without Host itself, with an empty 400: refused below with our body
    requireHostHeader: false
  })
  server.keepAliveTimeout = edge.keepAliveTimeoutMs
  limitConnections(server, edge.maxConnectionsPerIp, headersTimeout)
  answerParserErrors(server, edge)

  const emit = server.emit
  // Named parameters and `arguments` rather than a rest array: no array
  // allocated per emitted event on the hot path.
  server.emit = function (this: Server, event: string | symbol, req?: unknown, res?: unknown) {
    if (event === "request" || event === "checkContinue") {
      const request = req as IncomingMessage
      requestBegan(request)
      if (lacksHost(request)) return refuseWithoutHost(res as ServerResponse)
      if (guards.request(request, res as ServerResponse)) return true
      if (event === "request" && hotPaths(request, res as ServerResponse)) return true
    } else if (event === "upgrade") {
      requestBegan(req as IncomingMessage)
      if (guards.upgrade(req as IncomingMessage, res as Duplex)) return true
    }
    return Reflect.apply(emit, this, arguments)
  } as typeof emit
  return server
}

/**
 * At most `cap` open connections per socket address (0: no cap), and a
 * connection that sends no request within `idleMs` is closed: node's own
 * timeouts start at a request's first byte.
 */
const limitConnections = (server: Server, cap: number, idleMs: number) => {
  const open = new Map<string, number>()
  server.on("connection", (socket: EdgeSocket) => {
    socket[AWAITING_FIRST_REQUEST] = true
    // node's timeout listener destroys a socket whose timeout nobody handles
    socket.setTimeout(idleMs)
    if (cap <= 0) return
    const address = socket.remoteAddress ?? "unknown"
    const count = open.get(address) ?? 0
    if (count >= cap) {
      socket.destroy()
      return
    }
    open.set(address, count + 1)
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1
      if (left <= 0) open.delete(address)
      else open.set(address, left)
    })
  })
}

/** node's parser answers (400, 408, 413, 431, 417), with our JSON error body instead of an empty one. */
const answerParserErrors = (server: Server, edge: HttpEdgeConfig) => {
  const answers = parserAnswers(edge)
  server.on("clientError", (error: NodeJS.ErrnoException, socket: EdgeSocket) => {
    const inProgress = socket._httpMessage
    if (error.code === "ECONNRESET" || !socket.writable || (inProgress != null && inProgress.headersSent)) {
      socket.destroy()
      return
    }
    const response =
      error.code === "HPE_HEADER_OVERFLOW"
        ? answers.headersTooLarge
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? answers.timeout
          : error.code === "HPE_CHUNK_EXTENSIONS_OVERFLOW"
            ? answers.chunkExtensions
            : answers.badRequest(error.code ?? "malformed request")
    socket.end(response)
    socket.once("finish", () => socket.destroy())
  })
  server.on("checkExpectation", (_req: IncomingMessage, res: ServerResponse) => {
    res
      .writeHead(417, {
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(EXPECTATION_FAILED)),
        connection: "close"
      })
      .end(EXPECTATION_FAILED)
  })
}
