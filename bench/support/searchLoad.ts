// @ts-expect-error autocannon ships no types
import autocannonUntyped from "autocannon"
import { spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import http from "node:http"
import { join } from "node:path"
import { searchBody } from "../../discovery/DiscoverySearch.ts"
import { strictModels } from "../../discovery/cheapest.ts"
import { attemptParams, searchAttempts } from "../../discovery/relaxation.ts"
import { parseIntent } from "../../domain/intent/parseIntent.ts"
import { freeLoopbackPort } from "../../infra/freeLoopbackPort.ts"
import { processCpuSeconds } from "./shippedService.ts"

// The loads of bench:search: closed-loop throughput (autocannon, several
// connections) and sequential latency (one keep-alive connection, one request
// at a time, sub-millisecond resolution), both recording the CPU each watched
// process used; and the bare node:http proxy in front of Meilisearch.

/** /api/search's default limit (SEARCH_DEFAULT_LIMIT in api/discovery/searchFeed.ts; benches may not import api/). */
export const SEARCH_LIMIT = 8

/**
 * The first Meilisearch query body the service sends for each phrase: its
 * own parser, relaxation and body builder, with the index's vocabulary (its
 * category and brand facets) as the service loads it.
 */
export const firstQueryBodies = async (
  meiliUrl: string,
  masterKey: string,
  uid: string,
  phrases: ReadonlyArray<string>
): Promise<Array<string>> => {
  const response = await fetch(`${meiliUrl}/indexes/${uid}/search`, {
    method: "POST",
    headers: { authorization: `Bearer ${masterKey}`, "content-type": "application/json" },
    body: JSON.stringify({ q: "", limit: 0, facets: ["categories", "brand"] })
  })
  const facets = (await response.json()) as { facetDistribution?: Record<string, Record<string, number>> }
  if (!response.ok) throw new Error(`facets of ${uid}: ${response.status} ${JSON.stringify(facets)}`)
  const vocabulary = {
    categories: Object.keys(facets.facetDistribution?.categories ?? {}),
    brands: Object.keys(facets.facetDistribution?.brand ?? {})
  }
  return phrases.map((phrase) => {
    const intent = parseIntent(phrase, vocabulary)
    const attempt = searchAttempts(intent, undefined)[0]
    // a phrase with price words reads a pool of products, as the service does
    return searchBody(attempt.q, attemptParams(attempt, strictModels(intent, SEARCH_LIMIT)))
  })
}

export interface LoadRequest {
  readonly method: string
  readonly path: string
  readonly body?: string
  readonly headers?: Record<string, string>
}

export interface Measured {
  readonly p50: number
  readonly p99: number
  readonly rps: number
  readonly errors: number
  /** Requests answered in the run. */
  readonly count: number
  /** CPU time (ms, user + system) each watched process used in the run. */
  readonly cpuMs: ReadonlyArray<number>
  /** Sequential runs: every latency (ms) of each request of the list, by its index modulo `phrases`. */
  readonly byRequest?: ReadonlyArray<ReadonlyArray<number>>
}

interface AutocannonResult {
  readonly latency: { readonly p50: number; readonly p99: number }
  readonly requests: { readonly average: number; readonly total: number }
  readonly errors: number
  readonly non2xx: number
}
const autocannon = autocannonUntyped as (options: {
  url: string
  connections: number
  duration: number
  requests: ReadonlyArray<LoadRequest>
}) => Promise<AutocannonResult>

/** The processes whose CPU every run records, e.g. [Meilisearch, the service, the bare proxy]. */
export const cpuWatch = (pids: ReadonlyArray<number | undefined>) => {
  const now = () => pids.map((pid) => processCpuSeconds(pid) * 1000)
  return { now, since: (before: ReadonlyArray<number>) => now().map((ms, i) => ms - before[i]) }
}
type CpuWatch = ReturnType<typeof cpuWatch>

/** Closed-loop throughput: autocannon with `connections` over the requests, in turn. */
export const measure = async (
  url: string,
  requests: ReadonlyArray<LoadRequest>,
  connections: number,
  seconds: number,
  cpu: CpuWatch
): Promise<Measured> => {
  const before = cpu.now()
  const result = await autocannon({ url, connections, duration: seconds, requests })
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    errors: result.errors + result.non2xx,
    count: result.requests.total,
    cpuMs: cpu.since(before)
  }
}

const sequentialAgent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const once = (base: string, request: LoadRequest, retried = false): Promise<void> =>
  new Promise<void>((resolveDone, reject) => {
    const req = http.request(
      `${base}${request.path}`,
      {
        method: request.method,
        agent: sequentialAgent,
        headers: {
          ...(request.headers ?? {}),
          ...(request.body ? { "content-length": String(Buffer.byteLength(request.body)) } : {})
        }
      },
      (response) => {
        response.resume()
        response.on("end", () =>
          response.statusCode === 200 ? resolveDone() : reject(new Error(`${request.path}: ${response.statusCode}`))
        )
      }
    )
    req.setNoDelay(true)
    req.on("error", (error: NodeJS.ErrnoException) => {
      // A kept-alive socket the server closed as this request left on it (its keep-alive
      // timeout ran out while the other paths were measured): sent again once, on a new socket.
      if (req.reusedSocket && error.code === "ECONNRESET" && !retried)
        once(base, request, true).then(resolveDone, reject)
      else reject(error)
    })
    req.end(request.body)
  })

/**
 * Sequential latency (autocannon reports whole milliseconds, too coarse to
 * compare 6 ms with 8 ms): one keep-alive connection, one request at a time,
 * for `seconds`; latencies kept per phrase (request index modulo `phrases`).
 */
export const sequential = async (
  base: string,
  requests: ReadonlyArray<LoadRequest>,
  phrases: number,
  seconds: number,
  cpu: CpuWatch
): Promise<Measured> => {
  const before = cpu.now()
  const times: Array<number> = []
  const byRequest = Array.from({ length: phrases }, (): Array<number> => [])
  const until = performance.now() + seconds * 1000
  for (let i = 0; performance.now() < until; i++) {
    const started = performance.now()
    await once(base, requests[i % requests.length])
    const ms = performance.now() - started
    times.push(ms)
    byRequest[(i % requests.length) % phrases].push(ms)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]
  return {
    p50: at(0.5),
    p99: at(0.99),
    rps: times.length / seconds,
    errors: 0,
    count: times.length,
    cpuMs: cpu.since(before),
    byRequest
  }
}

/** Two runs of one path as one: latencies averaged, counts and CPU summed. */
export const both = (x: Measured, y: Measured): Measured => ({
  p50: (x.p50 + y.p50) / 2,
  p99: (x.p99 + y.p99) / 2,
  rps: (x.rps + y.rps) / 2,
  errors: x.errors + y.errors,
  count: x.count + y.count,
  cpuMs: x.cpuMs.map((ms, i) => ms + y.cpuMs[i]),
  byRequest: x.byRequest?.map((times, i) => [...times, ...(y.byRequest?.[i] ?? [])])
})

/** The bare node:http proxy (bareMeiliProxy.ts) passing `bodies` through to Meilisearch's index `uid`. */
export const startBareProxy = async (args: {
  readonly dir: string
  readonly meiliUrl: string
  readonly masterKey: string
  readonly uid: string
  readonly bodies: ReadonlyArray<string>
}) => {
  const port = await freeLoopbackPort()
  const bodiesFile = join(args.dir, "proxy-bodies.json")
  writeFileSync(bodiesFile, JSON.stringify(args.bodies))
  const child = spawn(
    process.execPath,
    [join(import.meta.dirname, "bareMeiliProxy.ts"), String(port), args.meiliUrl, args.masterKey, bodiesFile],
    { env: { ...process.env, BENCH_INDEX: args.uid }, stdio: ["ignore", "pipe", "inherit"] }
  )
  await new Promise<void>((resolveUp, reject) => {
    child.stdout.once("data", () => resolveUp())
    child.once("exit", (code) => reject(new Error(`bare proxy exited with ${code}`)))
  })
  return { url: `http://127.0.0.1:${port}`, child }
}
