import net from "node:net"

// A keep-alive HTTP/1.1 client over plain sockets: the transport to a
// Meilisearch reached over http (meiliHttpClient.ts). Every product search is
// one request to Meilisearch, and node:http's client (ClientRequest, agent,
// IncomingMessage stream, header objects both ways) cost 237 µs of CPU per
// search answer against 171 µs here, the JSON parse included in both
// (measured on loopback with bench:search's 15 answers, 5-140 KB each). One
// request is one socket write of a head built as text; the answer is read
// off the socket as bytes (content-length, chunked, or until close) and
// handed over whole.
//
// Meilisearch closes idle connections after its keep-alive timeout; a request
// written on a reused socket the server closed meanwhile fails before a byte
// of its answer arrives. A request its sender marks repeatable (a search: it
// changes nothing) is then sent once more, on a new socket; any other fails,
// as it did with node's agent, because the server may have acted on it
// before the connection went (a swap of indexes sent twice undoes itself).

/** An answer: its status and its whole body. */
export interface Http1Answer {
  readonly status: number
  readonly body: Buffer
}
type Settle = (error: Error | undefined, answer?: Http1Answer) => void

const HEAD_END = Buffer.from("\r\n\r\n")
const CRLF = Buffer.from("\r\n")
const MAX_HEAD_BYTES = 64 * 1024
const EMPTY = Buffer.alloc(0)
/** A body up to this many characters goes out joined to its head, in one write. */
const ONE_WRITE_BODY = 16 * 1024

/** A response that does not follow HTTP/1.1's framing. */
export class Http1ProtocolError extends Error {
  override readonly name = "Http1ProtocolError"
}

/** A request as it goes out. */
export interface Http1Request {
  /** The request line and headers, ending with the empty line. */
  readonly head: string
  /** As long as the head's content-length states. */
  /** Text, or bytes already encoded (a document batch built in a worker thread). */
  readonly body: string | Uint8Array | undefined
  /** Safe to send again when a reused socket closed before any answer (see the top). */
  readonly repeatable: boolean
}

interface Exchange extends Http1Request {
  readonly settle: Settle
  /** Sent once more already (see the comment at the top). */
  retried: boolean
  on: Connection | undefined
  abandoned: boolean
}

/** What the bytes arriving next are. */
const Reading = {
  Head: 0,
  Length: 1,
  ChunkSize: 2,
  ChunkData: 3,
  ChunkEnd: 4,
  Trailers: 5,
  UntilClose: 6
} as const
type Reading = (typeof Reading)[keyof typeof Reading]

/** One socket and the response being read on it. */
class Connection {
  readonly socket: net.Socket
  exchange: Exchange | undefined
  /** The socket answered an earlier exchange (a failure before any byte may be a stale keep-alive socket). */
  reused = false
  private received = false
  private reading: Reading = Reading.Head
  /** Bytes not yet consumed: the head so far, or a chunk-size line split across reads. */
  private pending: Buffer = EMPTY
  private status = 0
  private left = 0
  private closeAfter = false
  private parts: Array<Buffer> = []
  private size = 0
  private error: Error | undefined

  private readonly pool: Http1Pool

  constructor(pool: Http1Pool, host: string, port: number) {
    this.pool = pool
    this.socket = net.connect({ host, port, noDelay: true, keepAlive: true, keepAliveInitialDelay: 1_000 })
    this.socket.on("data", (data: Buffer) => this.onData(data))
    this.socket.on("error", (error) => {
      this.error = error
    })
    this.socket.on("close", () => this.onClose())
  }

  send(exchange: Exchange) {
    this.exchange = exchange
    exchange.on = this
    this.received = false
    this.reading = Reading.Head
    this.pending = EMPTY
    this.parts = []
    this.size = 0
    this.closeAfter = false
    this.socket.ref()
    const { head, body } = exchange
    if (body === undefined) this.socket.write(head)
    else if (typeof body === "string" && body.length <= ONE_WRITE_BODY) this.socket.write(head + body)
    else {
      // a document batch (megabytes): joined to its head, it would be copied whole once more
      this.socket.cork()
      this.socket.write(head)
      this.socket.write(body)
      this.socket.uncork()
    }
  }

  private onData(data: Buffer) {
    this.received = true
    if (this.exchange === undefined) {
      // bytes nobody asked for: the socket can no longer be trusted
      this.socket.destroy()
      return
    }
    let answered: (() => void) | undefined
    try {
      answered = this.read(data)
    } catch (error) {
      this.error = error instanceof Error ? error : new Http1ProtocolError(String(error))
      this.socket.destroy()
      return
    }
    // outside the try: what the caller's callback throws is not a protocol error
    answered?.()
  }

  /** Consumes bytes of the answer; when it is whole, what hands it over. */
  private read(data: Buffer): (() => void) | undefined {
    const bytes = this.pending.length === 0 ? data : Buffer.concat([this.pending, data])
    this.pending = EMPTY
    let at = 0
    while (at < bytes.length || this.reading === Reading.Length) {
      switch (this.reading) {
        case Reading.Head: {
          const end = this.endOf(bytes, at, HEAD_END, MAX_HEAD_BYTES, "response head")
          if (end < 0) return
          const head = bytes.toString("latin1", at, end)
          at = end + 4
          this.readHead(head)
          break
        }
        case Reading.Length: {
          at = this.take(bytes, at)
          if (this.left > 0) return
          return this.complete(at < bytes.length)
        }
        case Reading.ChunkSize: {
          const end = this.endOf(bytes, at, CRLF, 1_024, "chunk size line")
          if (end < 0) return
          const line = bytes.toString("latin1", at, end)
          const size = /^[0-9a-fA-F]{1,8}(?=$|[ \t;])/.exec(line)
          if (size === null) throw new Http1ProtocolError(`bad chunk size line ${JSON.stringify(line.slice(0, 40))}`)
          this.left = Number.parseInt(size[0], 16)
          this.reading = this.left === 0 ? Reading.Trailers : Reading.ChunkData
          at = end + 2
          break
        }
        case Reading.ChunkData: {
          at = this.take(bytes, at)
          if (this.left === 0) this.reading = Reading.ChunkEnd
          break
        }
        case Reading.ChunkEnd: {
          if (bytes.length - at < 2) {
            this.pending = bytes.subarray(at)
            return
          }
          if (bytes[at] !== 13 || bytes[at + 1] !== 10) throw new Http1ProtocolError("chunk not followed by CRLF")
          at += 2
          this.reading = Reading.ChunkSize
          break
        }
        case Reading.Trailers: {
          const end = this.endOf(bytes, at, CRLF, MAX_HEAD_BYTES, "trailer line")
          if (end < 0) return
          // an empty line ends the trailers (which nothing here needs)
          if (end === at) return this.complete(end + 2 < bytes.length)
          at = end + 2
          break
        }
        case Reading.UntilClose:
          this.keep(at === 0 ? bytes : bytes.subarray(at))
          return
      }
    }
  }

  /** Where `marker` starts from `at`, or -1 with the rest kept for the next read (at most `most` bytes of it). */
  private endOf(bytes: Buffer, at: number, marker: Buffer, most: number, what: string): number {
    const end = bytes.indexOf(marker, at)
    if (end < 0) {
      if (bytes.length - at > most) throw new Http1ProtocolError(`${what} over ${most} bytes`)
      this.pending = bytes.subarray(at)
    }
    return end
  }

  private readHead(head: string) {
    const status = /^HTTP\/1\.([01]) (\d{3})/.exec(head)
    if (status === null) throw new Http1ProtocolError(`not an HTTP/1 status line: ${JSON.stringify(head.slice(0, 40))}`)
    this.status = Number(status[2])
    // 1xx: an interim answer; the real one follows
    if (this.status < 200) return
    let length = -1
    let chunked = false
    this.closeAfter = status[1] === "0"
    let from = head.indexOf("\r\n")
    while (from >= 0) {
      const next = head.indexOf("\r\n", from + 2)
      const line = head.slice(from + 2, next < 0 ? undefined : next)
      const colon = line.indexOf(":")
      const name = line.slice(0, colon).trim().toLowerCase()
      const value = line.slice(colon + 1).trim()
      if (name === "content-length") {
        if (!/^\d{1,15}$/.test(value)) throw new Http1ProtocolError(`bad content-length ${JSON.stringify(value)}`)
        length = Number(value)
      } else if (name === "transfer-encoding") chunked = /(^|,)\s*chunked\s*$/i.test(value)
      else if (name === "connection")
        this.closeAfter = /close/i.test(value) || (this.closeAfter && !/keep-alive/i.test(value))
      from = next
    }
    if (this.status === 204 || this.status === 304) {
      this.reading = Reading.Length
      this.left = 0
    } else if (chunked) this.reading = Reading.ChunkSize
    else if (length >= 0) {
      this.reading = Reading.Length
      this.left = length
    } else {
      this.reading = Reading.UntilClose
      this.closeAfter = true
    }
  }

  private keep(part: Buffer) {
    this.parts.push(part)
    this.size += part.length
  }

  /** Keeps what arrived of the `left` body bytes expected; returns where they end. */
  private take(bytes: Buffer, at: number): number {
    const end = Math.min(at + this.left, bytes.length)
    if (end > at) this.keep(bytes.subarray(at, end))
    this.left -= end - at
    return end
  }

  private wholeBody(): Buffer {
    const body = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size)
    this.parts = []
    return body
  }

  /** The answer is whole: gives the socket back unless it cannot carry another exchange; returns the hand-over. */
  private complete(excess: boolean): () => void {
    const exchange = this.exchange
    this.exchange = undefined
    const body = this.wholeBody()
    if (excess || this.closeAfter) this.socket.destroy()
    else {
      this.reused = true
      this.pool.release(this)
    }
    const status = this.status
    return () => {
      if (exchange === undefined) return
      exchange.on = undefined
      exchange.settle(undefined, { status, body })
    }
  }

  private onClose() {
    const exchange = this.exchange
    this.exchange = undefined
    this.pool.closed(this)
    if (exchange === undefined || exchange.abandoned) return
    exchange.on = undefined
    if (this.reading === Reading.UntilClose && this.error === undefined) {
      exchange.settle(undefined, { status: this.status, body: this.wholeBody() })
    } else if (exchange.repeatable && !this.received && this.reused && !exchange.retried) {
      exchange.retried = true
      this.pool.retry(exchange)
    } else {
      exchange.settle(
        this.error ??
          new Error(`the server closed the connection before ${this.received ? "its answer was whole" : "answering"}`)
      )
    }
  }
}

/** Keep-alive connections to one host and port, at most `maxSockets` at once; requests beyond wait their turn. */
export class Http1Pool {
  private readonly idle: Array<Connection> = []
  private readonly waiting: Array<Exchange> = []
  private open = 0
  private readonly host: string
  private readonly port: number
  private readonly maxSockets: number

  constructor(host: string, port: number, maxSockets = 64) {
    this.host = host
    this.port = port
    this.maxSockets = maxSockets
  }

  /**
   * Sends a request and calls `settle` once with the answer or an error. The
   * function returned abandons the request: its socket is closed and `settle`
   * is not called.
   */
  request(request: Http1Request, settle: Settle): () => void {
    const exchange: Exchange = { ...request, settle, retried: false, on: undefined, abandoned: false }
    this.dispatch(exchange)
    return () => {
      if (exchange.abandoned) return
      exchange.abandoned = true
      const at = this.waiting.indexOf(exchange)
      if (at >= 0) this.waiting.splice(at, 1)
      exchange.on?.socket.destroy()
    }
  }

  private dispatch(exchange: Exchange) {
    const connection = this.idle.pop()
    if (connection !== undefined) connection.send(exchange)
    else if (this.open < this.maxSockets) this.connect().send(exchange)
    else this.waiting.push(exchange)
  }

  private connect() {
    this.open++
    return new Connection(this, this.host, this.port)
  }

  /** A request whose reused socket closed before answering, sent on a new socket. */
  retry(exchange: Exchange) {
    if (this.open < this.maxSockets) this.connect().send(exchange)
    else this.waiting.unshift(exchange)
  }

  release(connection: Connection) {
    const next = this.waiting.shift()
    if (next !== undefined) return connection.send(next)
    // an idle socket does not keep the process alive
    connection.socket.unref()
    this.idle.push(connection)
  }

  closed(connection: Connection) {
    this.open--
    const at = this.idle.indexOf(connection)
    if (at >= 0) this.idle.splice(at, 1)
    const next = this.waiting.shift()
    if (next !== undefined) this.connect().send(next)
  }

  /** Closes the idle sockets (a socket in use closes when its request is abandoned or answered). */
  destroy() {
    for (const connection of [...this.idle]) connection.socket.destroy()
  }
}
