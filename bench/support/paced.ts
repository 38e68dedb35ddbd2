// An open-loop load at a fixed rate, in its own process: requests are started
// at evenly spaced instants (not in once-a-second bursts, as autocannon's
// rate option does) over keep-alive sockets, and every request is awaited, so
// the count is exact. Latency runs from the scheduled start, so a client-side
// wait for a free socket, or a late send, counts against the server too. The
// client speaks raw HTTP/1.1 over node:net (prebuilt request bytes, minimal
// response parsing): node:http's client costs several times the CPU of the
// server it measures, which on a 2-core machine would measure the client.
//
// It must stay cheap: it shares the 2 cores with the server it measures. Due
// requests are sent whenever the event loop wakes anyway (a response arrived)
// and by a 1 ms timer otherwise, so the client sleeps in the kernel between
// events instead of spinning (the previous setImmediate/Atomics.wait loop
// took a whole core: ~29 µs of client CPU per request at 34k req/s). A
// response is parsed on its bytes (status, content-length: no string, no
// regex, no copy) when it arrives whole in one chunk with a content-length,
// the common case; anything else takes the general path. How late requests
// left against their schedule is printed (sendLag*), so the client's share of
// a latency is visible.
// Arguments: one JSON object { url, paths, rate, seconds, connections, headers }.
import { connect, type Socket } from "node:net"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { runQueueWaitNs } from "./phaseProbe.ts"
import { CLIENTS, clientIp } from "./clientIps.ts"

interface PacedArgs {
  readonly url: string
  readonly paths: ReadonlyArray<string>
  readonly rate: number
  readonly seconds: number
  readonly connections: number
  readonly headers?: Record<string, string>
  readonly spreadForwardedFor?: boolean
}

const args: PacedArgs = JSON.parse(process.argv[2] ?? "{}")
const target = new URL(args.url)
const extra = Object.entries(args.headers ?? {})
  .map(([k, v]) => `${k}: ${v}\r\n`)
  .join("")
// spreadForwardedFor: CLIENTS visitors behind a trusted proxy (the server runs with TRUST_PROXY), one
// X-Forwarded-For each, so per-visitor memos and limits see many visitors instead of one.
const requests = args.spreadForwardedFor
  ? Array.from({ length: Math.max(args.paths.length, CLIENTS) }, (_, i) =>
      Buffer.from(
        `GET ${args.paths[i % args.paths.length]} HTTP/1.1\r\nhost: ${target.host}\r\n${extra}x-forwarded-for: ${clientIp(i)}\r\n\r\n`,
        "latin1"
      )
    )
  : args.paths.map((path) => Buffer.from(`GET ${path} HTTP/1.1\r\nhost: ${target.host}\r\n${extra}\r\n`, "latin1"))
const total = Math.round(args.rate * args.seconds)
const intervalMs = 1000 / args.rate
const latencies = new Float64Array(total)
const sendLags = new Float64Array(total)
/** Responses per status class (index: status / 100). */
const statusClasses = new Array<number>(6).fill(0)
let errors = 0
let queued = 0 // requests due so far
let sent = 0 // requests handed to a socket (the oldest due ones first)
let completed = 0
let started = 0

interface Conn {
  readonly socket: Socket
  /** Bytes of a response not complete yet (general path only). */
  pending: Buffer | undefined
  /** Scheduled start of the request in flight; NaN: idle. */
  scheduled: number
}

let finish: () => void = () => undefined
const done = new Promise<void>((resolve) => {
  finish = resolve
})

// First in, first out: every socket keeps being used, so none idles past the
// server's keep-alive timeout and gets closed under the client.
const idle: Array<Conn> = []

const dispatch = (conn: Conn, now: number) => {
  const scheduled = started + sent * intervalMs
  sendLags[sent] = now - scheduled
  conn.scheduled = scheduled
  conn.socket.write(requests[sent % requests.length])
  sent++
}

/** Sends every due request that has an idle socket. */
const sendDue = (now: number) => {
  const due = Math.min(total, Math.floor((now - started) / intervalMs) + 1)
  if (due > queued) queued = due
  while (sent < queued && idle.length > 0) dispatch(idle.shift()!, now)
}

const CRLFCRLF = Buffer.from("\r\n\r\n")
const CONTENT_LENGTH = Buffer.from("\r\ncontent-length: ")
const CONTENT_LENGTH_CAPITAL = Buffer.from("\r\nContent-Length: ")

/** The decimal digits at `at`, or -1 if there are none. */
const digitsAt = (buffer: Buffer, at: number): number => {
  let value = 0
  let read = 0
  for (; at < buffer.length; at++, read++) {
    const digit = buffer[at] - 0x30
    if (digit < 0 || digit > 9) break
    value = value * 10 + digit
  }
  return read === 0 ? -1 : value
}

/** Where a chunked body starting at `from` ends, or undefined while incomplete. */
const chunkedEnd = (buffer: Buffer, from: number): number | undefined => {
  let at = from
  for (;;) {
    const line = buffer.indexOf("\r\n", at)
    if (line < 0) return undefined
    const size = parseInt(buffer.subarray(at, line).toString("latin1"), 16)
    if (Number.isNaN(size)) return undefined
    if (size === 0) {
      const trailerEnd = buffer.indexOf("\r\n", line + 2)
      return trailerEnd < 0 ? undefined : trailerEnd + 2
    }
    at = line + 2 + size + 2
    if (buffer.length < at) return undefined
  }
}

/** Where the response starting at 0 ends, or undefined while incomplete. */
const responseEnd = (buffer: Buffer): number | undefined => {
  const headEnd = buffer.indexOf(CRLFCRLF)
  if (headEnd < 0) return undefined
  let at = buffer.indexOf(CONTENT_LENGTH, 0)
  if (at < 0 || at > headEnd) at = buffer.indexOf(CONTENT_LENGTH_CAPITAL, 0)
  if (at >= 0 && at < headEnd) {
    const length = digitsAt(buffer, at + CONTENT_LENGTH.length)
    if (length >= 0) return headEnd + 4 + length
  }
  // General path: other spellings, chunked bodies.
  const head = buffer.subarray(0, headEnd).toString("latin1")
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) return chunkedEnd(buffer, headEnd + 4)
  return headEnd + 4 + Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0)
}

const onData = (conn: Conn, chunk: Buffer) => {
  let buffer = conn.pending === undefined ? chunk : Buffer.concat([conn.pending, chunk])
  const now = performance.now()
  for (;;) {
    const end = responseEnd(buffer)
    if (end === undefined || buffer.length < end) {
      conn.pending = buffer.length === 0 ? undefined : buffer
      break
    }
    const statusClass = buffer[9] - 0x30
    statusClasses[statusClass >= 0 && statusClass <= 5 ? statusClass : 0]++
    latencies[completed++] = now - conn.scheduled
    conn.scheduled = Number.NaN
    idle.push(conn)
    if (end === buffer.length) {
      conn.pending = undefined
      break
    }
    buffer = buffer.subarray(end)
  }
  if (completed + errors >= total) finish()
  else sendDue(now)
}

const conns: Array<Conn> = []
await Promise.all(
  Array.from(
    { length: args.connections },
    () =>
      new Promise<void>((resolve, reject) => {
        const socket = connect({ host: target.hostname, port: Number(target.port), noDelay: true }, () => resolve())
        const conn: Conn = { socket, pending: undefined, scheduled: Number.NaN }
        socket.on("data", (chunk) => onData(conn, chunk))
        socket.on("error", (error) => {
          errors++
          reject(error)
        })
        conns.push(conn)
      })
  )
)
idle.push(...conns)

const clientLoop = monitorEventLoopDelay({ resolution: 1 })
clientLoop.enable()
const cpuBefore = process.cpuUsage()
const waitBefore = runQueueWaitNs()
started = performance.now()
// The backstop for quiet moments (no response to wake the loop): every
// millisecond, the finest timer node has.
const timer = setInterval(() => {
  sendDue(performance.now())
  if (queued >= total) clearInterval(timer)
}, 1)
sendDue(started)
await done
clearInterval(timer)
const elapsed = (performance.now() - started) / 1000
const cpu = process.cpuUsage(cpuBefore)
clientLoop.disable()
for (const conn of conns) conn.socket.destroy()
const answered = latencies.subarray(0, completed).sort()
const lags = sendLags.subarray(0, sent).sort()
const pct = (values: Float64Array, p: number) =>
  values.length === 0 ? 0 : Number(values[Math.min(values.length - 1, Math.floor(p * values.length))].toFixed(2))
const count = (statusClass: number) => statusClasses[statusClass]
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: completed / elapsed,
    total: completed,
    p50: pct(answered, 0.5),
    p99: pct(answered, 0.99),
    p999: pct(answered, 0.999),
    max: pct(answered, 1),
    s2xx: count(2),
    s3xx: count(3),
    s4xx: count(4),
    s5xx: count(5),
    errors,
    timeouts: 0,
    clientCores: (cpu.user + cpu.system) / 1e6 / elapsed,
    clientCpuPerRequestUs: (cpu.user + cpu.system) / Math.max(1, completed),
    clientLoopP99Ms: clientLoop.percentile(99) / 1e6,
    clientLoopMaxMs: clientLoop.max / 1e6,
    clientRunQueueMs: (runQueueWaitNs() - waitBefore) / 1e6,
    sendLagP50Ms: pct(lags, 0.5),
    sendLagP99Ms: pct(lags, 0.99)
  }) + "\n"
)
