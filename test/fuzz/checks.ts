import { SCRIPT_MARKER } from "./mutations.ts"
import type { Operation } from "./spec.ts"

// What every answer must satisfy. One list, in one place: each check has a
// name (reported with its findings), and FUZZ_SKIP_CHECKS=name,name turns
// checks off for a run (to see the others while one is being fixed).

export interface Answer {
  /** 0 when no answer came */
  readonly status: number
  /** lower-case names */
  readonly headers: Readonly<Record<string, string>>
  readonly body: Buffer
  readonly ms: number
  /** why no answer came (reset, timeout), when status is 0 */
  readonly failure?: string
}

export interface Observation {
  /** "openapi": a request generated from the document; "raw": malformed HTTP; "mcp": JSON-RPC to /mcp */
  readonly source: "openapi" | "raw" | "mcp"
  /** The operation the request was aimed at, when it is one (a raw request line may aim at none). */
  readonly op: Operation | undefined
  readonly mutation: string
  readonly method: string
  readonly target: string
  readonly requestBody: Uint8Array | undefined
  readonly answer: Answer
  /** Why the document forbids the request, when it clearly does: then it must be refused. */
  readonly breach?: string | undefined
  /** The request was cut off on purpose: closing without an answer is fine. */
  readonly mayCloseSilently?: boolean
}

export interface Check {
  readonly name: string
  readonly description: string
  /** A problem with this observation, or undefined. */
  readonly check: (observation: Observation) => string | undefined
}

/** No answer slower than this (the slowest honest answer, a 100 KB body validated, is far below). */
export const SLOW_ANSWER_MS = 10_000

/**
 * Operations whose answer waits on the work they start, however long it
 * takes: neither a slow answer nor the client's timeout says anything about
 * the input there.
 */
const WAITS_ON_ITS_WORK: Readonly<Record<string, string>> = {
  "adminPipelines.ingest":
    "runs every feed (or one) and answers when they finish (wait defaults to true); wait:false queues behind a run in progress"
}
const waitsOnItsWork = (o: Observation) => o.op !== undefined && o.op.id in WAITS_ON_ITS_WORK

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/

const parseJson = (body: Buffer): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(body.toString("utf8")) }
  } catch {
    return { ok: false }
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const onlyKeys = (value: Record<string, unknown>, allowed: ReadonlyArray<string>) =>
  Object.keys(value).filter((key) => !allowed.includes(key))

/** Why `value` is not our error body { error: { code, message, details? } }, or undefined. */
export const errorShapeProblem = (value: unknown): string | undefined => {
  if (!isRecord(value) || !isRecord(value.error)) return "not { error: { ... } }"
  const extra = [
    ...onlyKeys(value, ["error"]),
    ...onlyKeys(value.error, ["code", "message", "details"]).map((k) => `error.${k}`)
  ]
  if (extra.length > 0) return `extra members ${extra.join(", ")}`
  if (typeof value.error.code !== "string" || value.error.code === "") return "error.code is not a non-empty string"
  if (typeof value.error.message !== "string" || value.error.message === "")
    return "error.message is not a non-empty string"
  return undefined
}

/** The JSON-RPC messages of an /mcp answer: a JSON body (one message or a batch) or an event stream's data lines. */
export const jsonRpcMessages = (answer: Answer): ReadonlyArray<unknown> | undefined => {
  const type = answer.headers["content-type"] ?? ""
  const text = answer.body.toString("utf8")
  if (type.includes("text/event-stream")) {
    return text
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => parseJson(Buffer.from(line.slice(5))))
      .map((parsed) => (parsed.ok ? parsed.value : "(not JSON)"))
  }
  const parsed = parseJson(answer.body)
  if (!parsed.ok) return undefined
  const value = parsed.value
  if (Array.isArray(value)) return value
  return isRecord(value) && "jsonrpc" in value ? [value] : undefined
}

/** Why `message` is not a JSON-RPC 2.0 response without extra members, or undefined. */
export const jsonRpcProblem = (message: unknown): string | undefined => {
  if (!isRecord(message)) return "a message that is not an object"
  if (message.jsonrpc !== "2.0") return `jsonrpc is ${JSON.stringify(message.jsonrpc)}`
  const extra = onlyKeys(message, ["jsonrpc", "id", "result", "error", "method", "params"])
  if (extra.length > 0) return `extra members ${extra.join(", ")}`
  if (message.error === undefined) return undefined
  if (!isRecord(message.error)) return "error is not an object"
  const extraInError = onlyKeys(message.error, ["code", "message", "data"])
  if (extraInError.length > 0) return `error has extra members ${extraInError.join(", ")}`
  if (!Number.isInteger(message.error.code)) return "error.code is not an integer"
  if (typeof message.error.message !== "string") return "error.message is not a string"
  return undefined
}

/** The request as the server reads it: the target percent-decoded (bad escapes kept), then the body. */
const requestText = (o: Observation) =>
  o.target.replace(/(?:%[0-9a-fA-F]{2})+/g, (escapes) =>
    Buffer.from(escapes.replace(/%/g, ""), "hex").toString("utf8")
  ) + (o.requestBody === undefined ? "" : Buffer.from(o.requestBody).toString("utf8"))

/**
 * A control character of the request found in the page with its neighbours
 * (so a page's own bundled script, which may hold control characters, is not
 * taken for an echo).
 */
const echoedControl = (request: string, html: string): string | undefined => {
  for (let at = request.search(CONTROL); at >= 0;) {
    const window = request.slice(Math.max(0, at - 1), at + 2)
    const found = html.indexOf(window)
    if (window.length === 3 && found >= 0) {
      const char = request.charCodeAt(at).toString(16).padStart(4, "0")
      return `control character U+${char} echoed into HTML near ${JSON.stringify(html.slice(Math.max(0, found - 40), found + 20))}`
    }
    const next = request.slice(at + 1).search(CONTROL)
    at = next < 0 ? -1 : at + 1 + next
  }
  return undefined
}

export const ALL_CHECKS: ReadonlyArray<Check> = [
  {
    name: "answered",
    description: "every request gets an answer (no reset, no timeout), unless it was cut off on purpose",
    check: (o) =>
      o.answer.status === 0 &&
      o.mayCloseSilently !== true &&
      !(o.answer.failure?.startsWith("no answer within") && waitsOnItsWork(o))
        ? `no answer: ${o.answer.failure ?? "closed"}`
        : undefined
  },
  {
    name: "no-5xx",
    description: "no 5xx, except 503 with Retry-After",
    check: (o) =>
      o.answer.status >= 500 && !(o.answer.status === 503 && o.answer.headers["retry-after"] !== undefined)
        ? `${o.answer.status}${o.answer.status === 503 ? " without Retry-After" : ""}`
        : undefined
  },
  {
    name: "no-503-while-up",
    description:
      "no 503 at all: the run's store and search engine are up, so a 503 that comes back when the request is sent again is an input taken for an outage (a client would retry it forever)",
    check: (o) => (o.answer.status === 503 ? "503 while every dependency is up" : undefined)
  },
  {
    name: "refuses-what-the-document-forbids",
    description:
      "a body the document forbids (a wrong type, an unknown property under additionalProperties: false, a missing required property) is refused with a 4xx",
    check: (o) =>
      o.breach !== undefined && o.answer.status > 0 && o.answer.status < 400
        ? `accepted with ${o.answer.status} though ${o.breach}`
        : undefined
  },
  {
    name: "error-body",
    description:
      "every 4xx/5xx carries { error: { code, message, details? } } (on /mcp: that, or JSON-RPC error messages)",
    check: (o) => {
      if (o.answer.status < 400 || o.method === "HEAD") return undefined
      if ((o.answer.headers["content-type"] ?? "").includes("text/html")) {
        // Pages answer people; only a page route may answer HTML.
        return o.op !== undefined && !o.op.documented ? undefined : "an HTML error page on an API route"
      }
      if (o.answer.body.length === 0) return "empty body"
      if (o.source === "mcp" && jsonRpcMessages(o.answer) !== undefined) return undefined
      const parsed = parseJson(o.answer.body)
      if (!parsed.ok) return "body is not JSON"
      return errorShapeProblem(parsed.value)
    }
  },
  {
    name: "json-rpc",
    description: "every JSON-RPC message /mcp answers is valid JSON-RPC 2.0, error objects without extra members",
    check: (o) => {
      if (o.source !== "mcp") return undefined
      const messages = jsonRpcMessages(o.answer)
      if (messages === undefined) return undefined
      const problems = [...new Set(messages.map(jsonRpcProblem).filter((p) => p !== undefined))]
      return problems.length > 0 ? problems.join("; ") : undefined
    }
  },
  {
    name: "documented-status",
    description: "the status is one /openapi.json lists for the operation (routes outside it: the list in spec.ts)",
    check: (o) =>
      o.op === undefined || o.answer.status === 0 || o.op.statuses.has(o.answer.status)
        ? undefined
        : `${o.answer.status} not documented for ${o.op.method} ${o.op.path} (documented: ${[...o.op.statuses].join(", ")})`
  },
  {
    name: "html-clean",
    description: "no control character of the request echoed into an HTML answer, no injected <script> unescaped",
    check: (o) => {
      if (!(o.answer.headers["content-type"] ?? "").includes("text/html")) return undefined
      const text = o.answer.body.toString("utf8")
      const echoed = echoedControl(requestText(o), text)
      if (echoed !== undefined) return echoed
      const script = text.indexOf(SCRIPT_MARKER)
      return script >= 0
        ? `unescaped injected <script> near ${JSON.stringify(text.slice(Math.max(0, script - 40), script + 30))}`
        : undefined
    }
  },
  {
    name: "fast",
    description: `every answer within ${SLOW_ANSWER_MS / 1000} s`,
    check: (o) =>
      o.answer.ms > SLOW_ANSWER_MS && !waitsOnItsWork(o) ? `answered in ${Math.round(o.answer.ms)} ms` : undefined
  }
]

/** The checks this run applies: all of them but FUZZ_SKIP_CHECKS (comma-separated names). */
export const activeChecks = (skip = process.env.FUZZ_SKIP_CHECKS ?? ""): ReadonlyArray<Check> => {
  const skipped = new Set(
    skip
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== "")
  )
  const unknown = [...skipped].filter((name) => !ALL_CHECKS.some((check) => check.name === name))
  if (unknown.length > 0) throw new Error(`FUZZ_SKIP_CHECKS names no check: ${unknown.join(", ")}`)
  return ALL_CHECKS.filter((check) => !skipped.has(check.name))
}
