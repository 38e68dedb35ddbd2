import fc from "fast-check"
import { activeChecks, type Answer, type Check, type Observation } from "./checks.ts"
import { contractBreach } from "./contract.ts"
import { knownCasesFor, requestsFor } from "./generate.ts"
import {
  closeMcpSession,
  generatedMcpCase,
  inSession,
  MCP_CASES,
  MCP_OPERATION,
  type McpCase,
  openMcpSession
} from "./mcp.ts"
import { sendRaw } from "./raw.ts"
import { RAW_CASES } from "./rawCases.ts"
import { toWire, type WireRequest } from "./request.ts"
import type { FuzzService } from "./service.ts"
import type { Operation } from "./spec.ts"

// A fuzz campaign: rounds of generated requests for every operation, then
// malformed raw HTTP and JSON-RPC; every answer goes through the checks; the
// service must still answer /health after every batch. Findings are grouped
// by (check, operation, mutation, status, error code), each with a count and
// one example request and answer.

export interface CampaignOptions {
  readonly seed: number
  /** Per operation and round: valid requests, and requests of each mutation kind. */
  readonly perOperation: { readonly valid: number; readonly perKind: number }
  /** Generated JSON-RPC messages to /mcp per round (beside the fixed cases). */
  readonly mcpRuns: number
  /** Stop after this many rounds... */
  readonly rounds?: number
  /** ...or at this time (ms since the epoch), whichever comes first. */
  readonly deadline?: number
  readonly concurrency: number
  readonly batchSize: number
  readonly log: (line: string) => void
}

export interface Finding {
  readonly check: string
  readonly operation: string
  readonly mutation: string
  readonly status: number
  readonly code: string | undefined
  readonly problem: string
  readonly request: string
  readonly answer: string
  count: number
}

export interface CampaignResult {
  readonly requests: number
  readonly rounds: number
  /** Requests the HTTP client refused to send (e.g. a header value it considers invalid). */
  readonly unsendable: number
  /** Requests sent again after a connection reset (the second answer is the one checked). */
  readonly retried: number
  /** 503s that did not come back when the request was sent again (a dependency slow under load, not the input). */
  readonly transient503s: number
  readonly findings: ReadonlyArray<Finding>
  /** How many answers of each status each operation got: shows how far the requests reached. */
  readonly statuses: ReadonlyMap<string, ReadonlyMap<number, number>>
}

const HEALTH_TIMEOUT_MS = 10_000
/** Pauses before sending a request that answered 503 again. */
const OUTAGE_RETRY_PAUSES_MS = [1_000, 3_000]
const REQUEST_TIMEOUT_MS = 20_000

const preview = (value: string, max = 240) => {
  const shown = JSON.stringify(value.length > max ? `${value.slice(0, max)}…(${value.length} chars)` : value)
  return shown.slice(1, -1)
}

const errorCode = (answer: Answer): string | undefined => {
  try {
    const body = JSON.parse(answer.body.toString("utf8"))
    return typeof body?.error?.code === "string"
      ? body.error.code
      : typeof body?.error?.code === "number"
        ? String(body.error.code)
        : undefined
  } catch {
    return undefined
  }
}

/** Field paths with array indices read the same for every index. */
const mutationKey = (mutation: string) => mutation.replace(/(?<=@ .*)\b\d+\b/g, "#")

/** Connection resets retried on a fresh connection (counted, reported at the end). */
let retriedResets = 0

/**
 * Sends one request. A reset before any answer is retried once: a kept-alive
 * connection the server closed as the request left is a race of every HTTP
 * client, not an answer; a reset that happens again is one.
 */
const sendHttp = async (base: string, wire: WireRequest): Promise<Answer | undefined> => {
  const first = await sendHttpOnce(base, wire)
  if (first?.status !== 0 || first.failure?.startsWith("no answer within") === true) return first
  retriedResets++
  return sendHttpOnce(base, wire)
}

const sendHttpOnce = async (base: string, wire: WireRequest): Promise<Answer | undefined> => {
  const started = performance.now()
  try {
    const response = await fetch(`${base}${wire.target}`, {
      method: wire.method,
      headers: wire.headers,
      ...(wire.body === undefined ? {} : { body: wire.body }),
      redirect: "manual",
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS)
    })
    const body = Buffer.from(await response.arrayBuffer())
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body,
      ms: performance.now() - started
    }
  } catch (error) {
    const failure = error as { name?: string; message?: string; cause?: { message?: string; code?: string } }
    if (failure.name === "TimeoutError") {
      return {
        status: 0,
        headers: {},
        body: Buffer.alloc(0),
        ms: performance.now() - started,
        failure: `no answer within ${REQUEST_TIMEOUT_MS} ms`
      }
    }
    if (failure.message === "fetch failed") {
      return {
        status: 0,
        headers: {},
        body: Buffer.alloc(0),
        ms: performance.now() - started,
        failure: failure.cause?.code ?? failure.cause?.message ?? "fetch failed"
      }
    }
    // The client refused the request before sending it: not the server's doing.
    return undefined
  }
}

/** Runs `tasks` with at most `concurrency` at a time. */
const pool = async <A>(tasks: ReadonlyArray<() => Promise<A>>, concurrency: number): Promise<Array<A>> => {
  const results: Array<A> = new Array(tasks.length)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(concurrency, tasks.length) }, async () => {
      while (next < tasks.length) {
        const index = next++
        results[index] = await tasks[index]!()
      }
    })
  )
  return results
}

/** A seed per (round, operation), so one operation's requests do not shift when another is added. */
const seedFor = (seed: number, round: number, name: string) => {
  let hash = (seed ^ Math.imul(round + 1, 0x9e3779b1)) | 0
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193)
  return hash | 0
}

export const runCampaign = async (fuzz: FuzzService, options: CampaignOptions): Promise<CampaignResult> => {
  const checks: ReadonlyArray<Check> = activeChecks()
  const findings = new Map<string, Finding>()
  let requests = 0
  let unsendable = 0
  let transient503s = 0
  retriedResets = 0
  let dead = false

  const statuses = new Map<string, Map<number, number>>()
  const observe = (observation: Observation) => {
    requests++
    const tally = statuses.get(observation.op?.id ?? "(no operation)") ?? new Map<number, number>()
    tally.set(observation.answer.status, (tally.get(observation.answer.status) ?? 0) + 1)
    statuses.set(observation.op?.id ?? "(no operation)", tally)
    for (const check of checks) {
      const problem = check.check(observation)
      if (problem === undefined) continue
      const code = errorCode(observation.answer)
      const operation = observation.op?.id ?? "(no operation)"
      const key = [check.name, operation, mutationKey(observation.mutation), observation.answer.status, code].join("|")
      const known = findings.get(key)
      if (known !== undefined) {
        known.count++
        continue
      }
      const body =
        observation.requestBody === undefined ? "" : preview(Buffer.from(observation.requestBody).toString("utf8"))
      // a raw request is all in its bytes
      const request =
        observation.source === "raw" ? body : `${observation.method} ${preview(observation.target, 160)} ${body}`
      findings.set(key, {
        check: check.name,
        operation,
        mutation: observation.mutation,
        status: observation.answer.status,
        code,
        problem,
        request,
        answer: `${observation.answer.status} ${preview(observation.answer.body.toString("utf8"), 200)}`,
        count: 1
      })
    }
  }

  const alive = async (after: string) => {
    const started = performance.now()
    const answer = await sendHttp(fuzz.url, {
      op: MCP_OPERATION,
      mutation: "health",
      method: "GET",
      target: "/health",
      headers: {},
      body: undefined
    })
    const ok = answer?.status === 200 && performance.now() - started < HEALTH_TIMEOUT_MS
    if (!ok) {
      dead = true
      findings.set(`alive|${after}`, {
        check: "alive",
        operation: "health",
        mutation: `after ${after}`,
        status: answer?.status ?? 0,
        code: undefined,
        problem: `/health answered ${answer?.status ?? "nothing"} (${answer?.failure ?? ""})`,
        request: "GET /health",
        answer: answer === undefined ? "" : `${answer.status} ${preview(answer.body.toString("utf8"))}`,
        count: 1
      })
    }
  }

  const inBatches = async <A>(items: ReadonlyArray<A>, what: string, send: (item: A) => Promise<void>) => {
    for (let start = 0; start < items.length && !dead; start += options.batchSize) {
      const batch = items.slice(start, start + options.batchSize)
      await pool(
        batch.map((item) => () => send(item)),
        options.concurrency
      )
      await alive(`${what} batch ${start / options.batchSize + 1}`)
    }
  }

  /**
   * Sends again, after a pause, a request that answered 503: one an input
   * causes comes back every time; one from a dependency slowed down by the
   * machine's load (a search over its time budget) goes away.
   */
  const unlessTransient503 = async <A extends Answer | undefined>(send: () => Promise<A>): Promise<A> => {
    let answer = await send()
    for (const pauseMs of OUTAGE_RETRY_PAUSES_MS) {
      if (answer?.status !== 503) break
      await new Promise((resolve) => setTimeout(resolve, pauseMs))
      answer = await send()
      if (answer?.status !== 503) transient503s++
    }
    return answer
  }

  const sendGenerated = async (wire: WireRequest) => {
    const answer = await unlessTransient503(() => sendHttp(fuzz.url, wire))
    if (answer === undefined) {
      unsendable++
      return
    }
    observe({
      source: "openapi",
      op: wire.op,
      mutation: wire.mutation,
      method: wire.method,
      target: wire.target,
      requestBody: wire.body,
      answer,
      breach: wire.breach
    })
  }

  const sendMcp = async (mcp: McpCase) => {
    const body = mcp.body === undefined ? undefined : Buffer.from(mcp.body)
    const wire: WireRequest = {
      op: MCP_OPERATION,
      mutation: mcp.name,
      method: mcp.method,
      target: "/mcp",
      headers: mcp.headers,
      body
    }
    const answer = await sendHttp(fuzz.url, wire)
    if (answer === undefined) {
      unsendable++
      return
    }
    observe({
      source: "mcp",
      op: MCP_OPERATION,
      mutation: mcp.name,
      method: mcp.method,
      target: "/mcp",
      requestBody: body,
      answer
    })
  }

  const operationAt = (method: string | undefined, path: string | undefined): Operation | undefined =>
    path === "/mcp" ? MCP_OPERATION : fuzz.spec.operations.find((op) => op.method === method && op.path === path)

  let round = 0
  const more = () =>
    !dead &&
    (options.rounds === undefined || round < options.rounds) &&
    (options.deadline === undefined || Date.now() < options.deadline)
  while (more()) {
    const generated = fuzz.spec.operations.flatMap((op) =>
      [
        ...(round === 0
          ? knownCasesFor(op, fuzz.spec, fuzz.hints, seedFor(options.seed, round, `${op.id} known`))
          : []),
        ...requestsFor(op, fuzz.spec, fuzz.hints, options.perOperation, (kind) =>
          seedFor(options.seed, round, `${op.id} ${kind}`)
        )
      ].map(({ draft, mutation, contract }) => ({
        ...toWire(draft, mutation, fuzz.credentials),
        breach: contract === undefined ? undefined : contractBreach(op.body, fuzz.spec.resolve, contract)
      }))
    )
    // Interleave operations so a batch mixes them (and a crash is caught near its cause).
    const shuffled = fc.sample(fc.shuffledSubarray(generated, { minLength: generated.length }), {
      seed: seedFor(options.seed, round, "shuffle"),
      numRuns: 1
    })[0]!
    await inBatches(shuffled, `round ${round + 1} generated`, sendGenerated)
    await inBatches(RAW_CASES, `round ${round + 1} raw HTTP`, async (rawCase) => {
      const answer = (await unlessTransient503(() => sendRaw(fuzz.port, rawCase)))!
      const first = rawCase.chunks[0]
      const op = operationAt(rawCase.method, rawCase.path)
      observe({
        source: rawCase.path === "/mcp" ? "mcp" : "raw",
        op,
        mutation: `raw HTTP: ${rawCase.name}`,
        method: rawCase.method ?? "(raw)",
        target: rawCase.path ?? "(raw)",
        requestBody: first === undefined ? undefined : Buffer.from(first),
        answer,
        ...(rawCase.mayCloseSilently === true ? { mayCloseSilently: true } : {})
      })
    })
    const mcp = [
      ...(round === 0 ? MCP_CASES : []),
      ...fc.sample(generatedMcpCase, { seed: seedFor(options.seed, round, "mcp"), numRuns: options.mcpRuns })
    ]
    const session = await openMcpSession(fuzz.url, fuzz.credentials.partnerKey)
    await inBatches(mcp, `round ${round + 1} JSON-RPC`, (mcpCase) => sendMcp(inSession(mcpCase, session)))
    await closeMcpSession(fuzz.url, session)
    round++
    options.log(`fuzz: round ${round} done, ${requests} requests, ${findings.size} distinct findings`)
  }
  return {
    requests,
    rounds: round,
    unsendable,
    retried: retriedResets,
    transient503s,
    findings: [...findings.values()],
    statuses
  }
}
