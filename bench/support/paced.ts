// An open-loop load at a fixed rate, in its own process: requests are started
// at evenly spaced instants (not in once-a-second bursts, as autocannon's
// rate option does), over keep-alive connections, and every request is
// awaited, so the count is exact. Latency is measured from the scheduled start,
// so a client-side queue (all sockets busy) counts against the server too.
// Arguments: one JSON object { url, paths, rate, seconds, connections, headers }.
import { Agent, request } from "node:http"

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
const agent = new Agent({ keepAlive: true, maxSockets: args.connections })
const total = Math.round(args.rate * args.seconds)
const latencies: Array<number> = []
const statuses = new Map<number, number>()
let errors = 0

const fire = (path: string, scheduled: number) =>
  new Promise<void>((resolve) => {
    const req = request(
      { host: target.hostname, port: target.port, path, method: "GET", agent, headers: args.headers },
      (res) => {
        res.resume()
        res.on("end", () => {
          latencies.push(performance.now() - scheduled)
          statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1)
          resolve()
        })
      }
    )
    req.on("error", () => {
      errors++
      resolve()
    })
    req.end()
  })

const started = performance.now()
const pending: Array<Promise<void>> = []
let sent = 0
await new Promise<void>((done) => {
  const tick = () => {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * args.rate))
    while (sent < due) {
      const scheduled = started + (sent / args.rate) * 1000
      pending.push(fire(args.paths[sent % args.paths.length], scheduled))
      sent++
    }
    if (sent >= total) done()
    else setImmediate(tick)
  }
  tick()
})
await Promise.all(pending)
const elapsed = (performance.now() - started) / 1000
agent.destroy()
latencies.sort((a, b) => a - b)
const pct = (p: number) => latencies.length === 0 ? 0 : latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]
process.stdout.write(JSON.stringify({
  requestsPerSecond: latencies.length / elapsed,
  total: latencies.length,
  p50: Number(pct(0.5).toFixed(2)),
  p99: Number(pct(0.99).toFixed(2)),
  max: Number((latencies.at(-1) ?? 0).toFixed(2)),
  s2xx: [...statuses].filter(([s]) => s >= 200 && s < 300).reduce((n, [, c]) => n + c, 0),
  s3xx: [...statuses].filter(([s]) => s >= 300 && s < 400).reduce((n, [, c]) => n + c, 0),
  s4xx: [...statuses].filter(([s]) => s >= 400 && s < 500).reduce((n, [, c]) => n + c, 0),
  s5xx: [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0),
  errors,
  timeouts: 0
}) + "\n")
