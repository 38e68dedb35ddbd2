import { connect } from "node:net"
import type { Answer } from "./checks.ts"

// A raw HTTP/1.1 client over a socket, for what no HTTP client library would
// send (rawCases.ts): writes the bytes, reads until the server closes, parses
// the first final answer. A case says whether it cuts the request off on
// purpose (then closing without an answer is fine).

export interface RawCase {
  readonly name: string
  /** The documented path it aims at, when its request line names one. */
  readonly method?: string
  readonly path?: string
  /** Written in order, `pauseMs` apart. */
  readonly chunks: ReadonlyArray<string | Buffer>
  readonly pauseMs?: number
  /** Half-close after writing (the request is incomplete on purpose). */
  readonly endAfterWrite?: boolean
  readonly mayCloseSilently?: boolean
}

const headerEnd = (buffer: Buffer) => buffer.indexOf("\r\n\r\n")

/** Parses the first final (non-1xx) response out of what the server sent. */
export const parseResponse = (bytes: Buffer): Omit<Answer, "ms"> => {
  let rest = bytes
  for (;;) {
    const end = headerEnd(rest)
    if (end < 0)
      return {
        status: 0,
        headers: {},
        body: Buffer.alloc(0),
        failure: bytes.length === 0 ? "closed without an answer" : "incomplete answer"
      }
    const head = rest.subarray(0, end).toString("latin1").split("\r\n")
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? "")?.[1] ?? 0)
    const headers: Record<string, string> = {}
    for (const line of head.slice(1)) {
      const colon = line.indexOf(":")
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
    }
    let body = rest.subarray(end + 4)
    if (status >= 100 && status < 200) {
      rest = body
      continue
    }
    if (headers["content-length"] !== undefined) body = body.subarray(0, Number(headers["content-length"]))
    else if ((headers["transfer-encoding"] ?? "").includes("chunked")) body = dechunk(body)
    return { status, headers, body }
  }
}

const dechunk = (body: Buffer): Buffer => {
  const parts: Array<Buffer> = []
  let at = 0
  for (;;) {
    const lineEnd = body.indexOf("\r\n", at)
    if (lineEnd < 0) break
    const size = parseInt(body.subarray(at, lineEnd).toString("latin1"), 16)
    if (!(size > 0)) break
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
  return Buffer.concat(parts)
}

/** Sends one raw case to host:port and reads until the server closes (or `timeoutMs`). */
export const sendRaw = (
  port: number,
  rawCase: RawCase,
  // a request cut off on purpose may rightly wait for the rest: do not wait long for it
  timeoutMs = rawCase.mayCloseSilently === true ? 2_000 : 8_000
): Promise<Answer> =>
  new Promise((resolve) => {
    const started = performance.now()
    const received: Array<Buffer> = []
    const socket = connect({ host: "127.0.0.1", port })
    let done = false
    const finish = (failure?: string) => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      const parsed = parseResponse(Buffer.concat(received))
      // An answer that arrived complete counts even if the socket then timed out or reset.
      resolve({
        ...parsed,
        ...(parsed.status === 0 && failure !== undefined ? { failure } : {}),
        ms: performance.now() - started
      })
    }
    const timer = setTimeout(() => finish(`no answer within ${timeoutMs} ms`), timeoutMs)
    socket.on("data", (chunk) => {
      received.push(chunk)
      // Pipelined requests keep the socket open: stop at the first complete answer.
      const parsed = parseResponse(Buffer.concat(received))
      const declared = Number(parsed.headers["content-length"] ?? NaN)
      if (parsed.status >= 200 && Number.isFinite(declared) && parsed.body.length >= declared) finish()
    })
    socket.on("error", (error) => finish(`socket error: ${error.message}`))
    socket.on("close", () => finish())
    socket.on("connect", async () => {
      for (const [index, chunk] of rawCase.chunks.entries()) {
        if (index > 0 && rawCase.pauseMs !== undefined) await new Promise((r) => setTimeout(r, rawCase.pauseMs))
        if (socket.destroyed) return
        socket.write(typeof chunk === "string" ? Buffer.from(chunk, "latin1") : chunk)
      }
      if (rawCase.endAfterWrite === true) socket.end()
    })
  })
