// An open-loop load at a fixed rate, in its own process: requests are started
// at evenly spaced instants (not in once-a-second bursts, as autocannon's
// rate option does) over keep-alive sockets, and every request is awaited, so
// the count is exact. Latency runs from the scheduled start, so a client-side
// wait for a free socket counts against the server too. The client speaks raw
// HTTP/1.1 over node:net (prebuilt request bytes, minimal response parsing):
// node:http's client costs several times the CPU of the server it measures,
// which on a 2-core machine would measure the client.
// Arguments: one JSON object { url, paths, rate, seconds, connections, headers }.
import { connect, type Socket } from "node:net"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { runQueueWaitNs } from "./phaseProbe.ts"

interface PacedArgs {
  readonly url: string
  readonly paths: ReadonlyArray<string>
  readonly rate: number
  readonly seconds: number
  readonly connections: number
  readonly headers?: Record<string, string>
}

const args: PacedArgs = JSON.parse(process.argv[2] ?? "{}")
const target = new URL(args.url)
const extra = Object.entries(args.headers ?? {})
  .map(([k, v]) => `${k}: ${v}\r\n`)
  .join("")
const requests = args.paths.map((path) =>
  Buffer.from(`GET ${path} HTTP/1.1\r\nhost: ${target.host}\r\n${extra}\r\n`, "latin1")
)
const total = Math.round(args.rate * args.seconds)
const latencies: Array<number> = []
const statuses = new Map<number, number>()
let errors = 0
let sent = 0
let completed = 0
const waiting: Array<number> = [] // scheduled start times of due requests without a socket yet

interface Conn {
  readonly socket: Socket
  buffer: Buffer
  scheduled: number | undefined
}

let finish: () => void = () => undefined
const done = new Promise<void>((resolve) => {
  finish = resolve
})

const dispatch = (conn: Conn) => {
  const scheduled = waiting.shift()
  if (scheduled === undefined) return
  conn.scheduled = scheduled
  conn.socket.write(requests[sent++ % requests.length])
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

const onData = (conn: Conn, chunk: Buffer) => {
  conn.buffer = conn.buffer.length === 0 ? chunk : Buffer.concat([conn.buffer, chunk])
  for (;;) {
    const end = conn.buffer.indexOf("\r\n\r\n")
    if (end < 0) return
    const head = conn.buffer.subarray(0, end).toString("latin1")
    const bodyEnd = /\r\ntransfer-encoding:\s*chunked/i.test(head)
      ? chunkedEnd(conn.buffer, end + 4)
      : end + 4 + Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0)
    if (bodyEnd === undefined || conn.buffer.length < bodyEnd) return
    conn.buffer = conn.buffer.subarray(bodyEnd)
    const status = Number(head.slice(9, 12))
    statuses.set(status, (statuses.get(status) ?? 0) + 1)
    latencies.push(performance.now() - (conn.scheduled ?? performance.now()))
    conn.scheduled = undefined
    completed++
    if (completed + errors >= total) finish()
    else dispatch(conn)
  }
}

const conns: Array<Conn> = []
await Promise.all(
  Array.from(
    { length: args.connections },
    () =>
      new Promise<void>((resolve, reject) => {
        const socket = connect({ host: target.hostname, port: Number(target.port), noDelay: true }, () => resolve())
        const conn: Conn = { socket, buffer: Buffer.alloc(0), scheduled: undefined }
        socket.on("data", (chunk) => onData(conn, chunk))
        socket.on("error", (error) => {
          errors++
          reject(error)
        })
        conns.push(conn)
      })
  )
)

const clientLoop = monitorEventLoopDelay({ resolution: 1 })
clientLoop.enable()
const cpuBefore = process.cpuUsage()
const waitBefore = runQueueWaitNs()
const started = performance.now()
let queued = 0
// Between sends the client sleeps in the kernel (Atomics.wait, at most
// NAP_MS, then the event loop reads what arrived) instead of spinning on
// setImmediate: a spinning client took a whole core of the two, from
// whichever server it measured.
const NAP_MS = 0.1
const nap = new Int32Array(new SharedArrayBuffer(4))
const tick = () => {
  const now = performance.now()
  const due = Math.min(total, Math.floor(((now - started) / 1000) * args.rate))
  while (queued < due) waiting.push(started + (queued++ / args.rate) * 1000)
  for (const conn of conns) if (conn.scheduled === undefined && waiting.length > 0) dispatch(conn)
  if (queued >= total) return
  const untilNext = started + (queued / args.rate) * 1000 - performance.now()
  if (untilNext > 0) Atomics.wait(nap, 0, 0, Math.min(NAP_MS, untilNext))
  setImmediate(tick)
}
tick()
await done
const elapsed = (performance.now() - started) / 1000
const cpu = process.cpuUsage(cpuBefore)
clientLoop.disable()
for (const conn of conns) conn.socket.destroy()
latencies.sort((a, b) => a - b)
const pct = (p: number) =>
  latencies.length === 0 ? 0 : latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]
const count = (from: number, to: number) =>
  [...statuses].filter(([s]) => s >= from && s < to).reduce((n, [, c]) => n + c, 0)
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: latencies.length / elapsed,
    total: latencies.length,
    p50: Number(pct(0.5).toFixed(2)),
    p99: Number(pct(0.99).toFixed(2)),
    p999: Number(pct(0.999).toFixed(2)),
    max: Number((latencies.at(-1) ?? 0).toFixed(2)),
    s2xx: count(200, 300),
    s3xx: count(300, 400),
    s4xx: count(400, 500),
    s5xx: count(500, 600),
    errors,
    timeouts: 0,
    clientCores: (cpu.user + cpu.system) / 1e6 / elapsed,
    clientLoopP99Ms: clientLoop.percentile(99) / 1e6,
    clientLoopMaxMs: clientLoop.max / 1e6,
    clientRunQueueMs: (runQueueWaitNs() - waitBefore) / 1e6
  }) + "\n"
)
