// Runs one autocannon load in its own process (so the load generator never
// shares an event loop or a core's time slice with the server it measures)
// and prints the figures as one JSON line. Arguments: one JSON object.
// @ts-expect-error autocannon ships no types
import autocannon from "autocannon"
import { CLIENTS, clientIp } from "./clientIps.ts"

interface LoadArgs {
  readonly url: string
  readonly paths: ReadonlyArray<string>
  readonly connections: number
  readonly seconds: number
  readonly rate?: number
  readonly method?: string
  readonly headers?: Record<string, string>
  readonly body?: string
  /** A body per request with `{n}` replaced by a counter (unique bodies, e.g. never-seen URLs). */
  readonly bodyTemplate?: string
  readonly spreadForwardedFor?: boolean
}

const args: LoadArgs = JSON.parse(process.argv[2] ?? "{}")
let counter = 0
const result = await autocannon({
  url: args.url,
  connections: args.connections,
  duration: args.seconds,
  overallRate: args.rate,
  headers: args.headers,
  // spreadForwardedFor: CLIENTS visitors behind a trusted proxy, one X-Forwarded-For each (see paced.ts)
  requests: (args.spreadForwardedFor
    ? Array.from({ length: Math.max(args.paths.length, CLIENTS) }, (_, i) => ({
        path: args.paths[i % args.paths.length]!,
        headers: { ...args.headers, "x-forwarded-for": clientIp(i) }
      }))
    : args.paths.map((path) => ({ path }))
  ).map(({ path, ...perRequest }) => ({
    ...perRequest,
    method: args.method ?? "GET",
    path,
    body: args.body,
    // autocannon's own idReplacement miscounts Content-Length with this
    // version's ids (the server then waits for bytes that never come).
    ...(args.bodyTemplate === undefined
      ? {}
      : {
          setupRequest: (request: Record<string, unknown>) => ({
            ...request,
            body: args.bodyTemplate!.replaceAll("{n}", `${process.pid}-${counter++}`)
          })
        })
  }))
})
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    p999: result.latency.p99_9,
    max: result.latency.max,
    s2xx: result["2xx"],
    s3xx: result["3xx"],
    s4xx: result["4xx"],
    s5xx: result["5xx"],
    errors: result.errors,
    timeouts: result.timeouts
  }) + "\n"
)
