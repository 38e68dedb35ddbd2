import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"

export interface LoadResult {
  readonly requestsPerSecond: number
  readonly total: number
  readonly p50: number
  readonly p99: number
  /** 99.9th percentile latency (ms). */
  readonly p999: number
  readonly max: number
  readonly s2xx: number
  readonly s3xx: number
  readonly s4xx: number
  readonly s5xx: number
  readonly errors: number
  readonly timeouts: number
  /** The load generator's own CPU (share of one core) and event-loop delay: a starved client inflates latencies. */
  readonly clientCores?: number
  readonly clientLoopP99Ms?: number
  readonly clientLoopMaxMs?: number
  /** Time the load generator was runnable but had no core (ms). */
  readonly clientRunQueueMs?: number
  /** The paced client's CPU per request (µs), and how late its sends left against their schedule (ms). */
  readonly clientCpuPerRequestUs?: number
  readonly sendLagP50Ms?: number
  readonly sendLagP99Ms?: number
}

const script = fileURLToPath(new URL("./load.ts", import.meta.url))
const pacedScript = fileURLToPath(new URL("./paced.ts", import.meta.url))

const runChild = (file: string, args: unknown): Promise<LoadResult> =>
  new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [file, JSON.stringify(args)],
      { maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`load run failed: ${error.message}\n${stderr}`))
        try {
          resolve(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}"))
        } catch (cause) {
          reject(new Error(`unreadable load output: ${stdout}\n${stderr} (${String(cause)})`))
        }
      }
    )
  })

/** A fixed-rate open-loop load (evenly spaced requests, every one awaited); latencies in ms. */
export const runPaced = (args: {
  url: string
  paths: ReadonlyArray<string>
  rate: number
  seconds: number
  connections: number
  headers?: Record<string, string>
  spreadForwardedFor?: boolean
}): Promise<LoadResult> => runChild(pacedScript, args)

/** Runs autocannon (closed loop, as fast as it goes) in a child process and returns its figures. */
export const runLoad = (args: {
  url: string
  paths: ReadonlyArray<string>
  connections: number
  seconds: number
  rate?: number
  method?: string
  headers?: Record<string, string>
  body?: string
  bodyTemplate?: string
  spreadForwardedFor?: boolean
}): Promise<LoadResult> => runChild(script, args)
