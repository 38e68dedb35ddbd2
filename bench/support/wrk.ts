import { execFile, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { CLIENTS, clientIp } from "./clientIps.ts"

// Debian's `wrk` (a C load generator, much cheaper than autocannon, so the
// server is the limit sooner) driven by a generated Lua script: the requests
// cycle over the paths and, with spreadForwardedFor, over CLIENTS visitors
// (one X-Forwarded-For each, as paced.ts and load.ts do), prebuilt once in
// init() so the per-request Lua is an array lookup.

export const wrkInstalled = () => spawnSync("wrk", ["--version"]).error === undefined

export interface WrkResult {
  readonly requestsPerSecond: number
  /** Responses wrk completed (any status). */
  readonly requests: number
  readonly p50Ms: number
  readonly p99Ms: number
  /** Socket errors and non-2xx/3xx answers, as wrk words them ("none" when there were none). */
  readonly errors: string
}

const lua = (value: string) => JSON.stringify(value)

const script = (paths: ReadonlyArray<string>, headers: Record<string, string>, spreadForwardedFor: boolean) => `
local paths = { ${paths.map(lua).join(", ")} }
local ips = { ${spreadForwardedFor ? Array.from({ length: CLIENTS }, (_, i) => lua(clientIp(i))).join(", ") : ""} }
local requests = {}
local n = 0
init = function(args)
  local count = math.max(#paths, #ips)
  for i = 0, count - 1 do
    local headers = { ${Object.entries(headers)
      .map(([name, value]) => `[${lua(name)}] = ${lua(value)}`)
      .join(", ")} }
    if #ips > 0 then headers["X-Forwarded-For"] = ips[(i % #ips) + 1] end
    requests[i + 1] = wrk.format("GET", paths[(i % #paths) + 1], headers)
  end
end
request = function()
  n = n + 1
  if n > #requests then n = 1 end
  return requests[n]
end
`

/** Milliseconds of a wrk duration ("812.00us", "1.20ms", "2.01s"). */
const ms = (text: string | undefined) => {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text ?? "")
  if (match === null) return Number.NaN
  const scale = { us: 1e-3, ms: 1, s: 1e3, m: 60e3 }[match[2] as "us" | "ms" | "s" | "m"]
  return Number(match[1]) * scale
}

/** `wrk -t1 -c{connections} -d{seconds}s --latency` over `paths` of `url`. */
export const runWrk = (args: {
  readonly url: string
  readonly paths: ReadonlyArray<string>
  readonly seconds: number
  readonly connections: number
  readonly headers: Record<string, string>
  readonly spreadForwardedFor: boolean
}) =>
  new Promise<WrkResult>((resolve, reject) => {
    const dir = mkdtempSync(join(tmpdir(), "bench-wrk-"))
    const file = join(dir, "requests.lua")
    writeFileSync(file, script(args.paths, args.headers, args.spreadForwardedFor))
    const argv = ["-t1", `-c${args.connections}`, `-d${args.seconds}s`, "--latency", "-s", file, args.url]
    execFile("wrk", argv, (error, stdout, stderr) => {
      rmSync(dir, { recursive: true, force: true })
      if (error) return reject(new Error(`wrk failed: ${error.message}\n${stderr}`))
      const errors = [...stdout.matchAll(/Socket errors:.*|Non-2xx or 3xx responses:.*/g)].map((m) => m[0].trim())
      resolve({
        requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? "NaN"),
        requests: Number(/(\d+) requests in/.exec(stdout)?.[1] ?? "NaN"),
        p50Ms: ms(/^\s+50%\s+(\S+)/m.exec(stdout)?.[1]),
        p99Ms: ms(/^\s+99%\s+(\S+)/m.exec(stdout)?.[1]),
        errors: errors.length === 0 ? "none" : errors.join("; ")
      })
    })
  })
