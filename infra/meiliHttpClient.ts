import { MeilisearchApiError, MeilisearchRequestError, type MeilisearchErrorResponse } from "meilisearch"
import https from "node:https"
import { Http1Pool } from "./http1Pool.ts"

// The Meilisearch client's transport: keep-alive plain sockets over http
// (http1Pool.ts), node:https over TLS.
//
// Why not the built-in fetch: measured on loopback against Meilisearch 1.21,
// every fetch round trip took ~45 ms (p50), a node:http one 4 ms: fetch's
// request write pattern meets delayed ACKs. At 45 ms a search could not stay
// near Meilisearch's own latency. Errors mirror the client's own: an HTTP
// error answer is a MeilisearchApiError (with the body as `cause`), a network
// failure a MeilisearchRequestError, so callers see the same types.

const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64 })

const headersOf = (init: RequestInit | undefined): Record<string, string> => {
  const out: Record<string, string> = {}
  new Headers(init?.headers).forEach((value, key) => {
    out[key] = value
  })
  return out
}

/** A request that had no complete answer within its deadline (the service's search bound). */
export class MeiliDeadlineError extends Error {
  override readonly name = "MeiliDeadlineError"
  constructor(waitedMs: number, busy = false) {
    super(
      busy
        ? `Meilisearch, busy (answering other requests or working), did not answer this one within ${waitedMs} ms`
        : `Meilisearch answered nothing for ${waitedMs} ms`
    )
  }
}

/**
 * How long a request may wait, told apart by what the server does meanwhile.
 * A Meilisearch that answers nothing at all for `silentMs` is taken for hung
 * (stopped, swapping): the request fails then. One that keeps answering
 * other requests (searches, the sync's task polls) is working, only busy (a
 * big batch indexing on the same cores): the request waits on, up to `maxMs`.
 * A number is both bounds.
 */
export type MeiliDeadline = number | { readonly silentMs: number; readonly maxMs: number }

/** When each Meilisearch (host:port) last finished an answer to any request (performance.now()). */
const lastAnswerAt = new Map<string, number>()
const answeredFrom = (target: MeiliTarget) => lastAnswerAt.set(target.host, performance.now())

/**
 * Meilisearch hosts with a health probe in flight (one at a time each). A
 * request that waits on a silent server asks its `/health` halfway through
 * the silent bound: the answer counts as one (answeredFrom), so a server
 * that is alive but has nothing else to answer is seen busy, not hung.
 * Without it, a search's only sign of life were other answers: while a feed's
 * batches are sent no task is polled, Meilisearch runs as many searches at
 * once as it has cores, and on a loaded machine each took about a second,
 * so 800 ms passed without any answer from an engine that was working, and
 * searches were answered 503 "answered nothing for 800 ms". A stopped or
 * hung server answers no probe either.
 */
const probing = new Set<string>()
const healthTargets = new Map<string, MeiliTarget>()
const healthOf = (target: MeiliTarget) => {
  let health = healthTargets.get(target.host)
  if (health === undefined) {
    // below the same path prefix as the API's routes (a server behind a proxy's path)
    const at = target.path.search(/\/(indexes\/|multi-search)/)
    health = meiliTarget(new URL(`${at < 0 ? "" : target.path.slice(0, at)}/health`, target.href))
    healthTargets.set(target.host, health)
  }
  return health
}
const probeHealth = (target: MeiliTarget, timeoutMs: number) => {
  if (probing.has(target.host)) return
  probing.add(target.host)
  sendMeiliRequest(healthOf(target), "GET", {}, undefined, timeoutMs, () => probing.delete(target.host))
}

/**
 * Signs of life where we can read them: the process serving a host (the
 * embedded Meilisearch registers its child). A Meilisearch whose every HTTP
 * worker holds a slow search answers nothing, not even `/health`, for a
 * second and more while it indexes a big batch on the same cores (measured:
 * 53 searches answered 503 "answered nothing for 800 ms" in a 1M feed run,
 * the probe notwithstanding); its CPU time moves all along, or, when the
 * cores are taken, its threads wait their turn: in quiet 1M feed runs its CPU
 * time stood still for up to 1.3 s while its search and indexing threads
 * were runnable (state R, none waiting for the disk), and searches got 503s
 * then. A stopped one's CPU time stands still and its threads are stopped
 * (T); a deadlocked one's sleep (S).
 */
export interface ProcessWatch {
  /** CPU time used so far (any unit), undefined where it cannot be read. */
  readonly cpuTime: () => number | undefined
  /** Whether a thread of it is runnable or waits for the disk now. */
  readonly wantsToRun: () => boolean
}
const watched = new Map<string, ProcessWatch>()
export const watchMeiliProcess = (host: string, watch: ProcessWatch) => {
  watched.set(host, watch)
  return () => {
    if (watched.get(host) === watch) watched.delete(host)
  }
}

/** Where a request goes, as node:http's request options (no URL object per request). */
export interface MeiliTarget {
  readonly protocol: string
  readonly hostname: string
  readonly port: string
  /** host:port as the Host header states it */
  readonly host: string
  readonly path: string
  /** For error messages. */
  readonly href: string
}

export const meiliTarget = (url: URL): MeiliTarget => ({
  protocol: url.protocol,
  // node:http wants an IPv6 host without its brackets
  hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
  port: url.port,
  host: url.host,
  path: `${url.pathname}${url.search}`,
  href: url.href
})

/** Header lines of a headers object, formatted once per object (the search path passes the same one each time). */
const headLines = new WeakMap<Readonly<Record<string, string>>, string>()
const linesOf = (headers: Readonly<Record<string, string>>) => {
  let lines = headLines.get(headers)
  if (lines === undefined) {
    lines = ""
    for (const [name, value] of Object.entries(headers)) {
      // the head states these itself
      if (/^(host|content-length|connection|transfer-encoding)$/i.test(name)) continue
      // as node:http refuses them: a line break would start a header of its own
      if (/[\r\n]/.test(name) || /[\r\n]/.test(value)) throw new TypeError(`invalid character in header ${name}`)
      lines += `${name}: ${value}\r\n`
    }
    headLines.set(headers, lines)
  }
  return lines
}
const BODYLESS = new Set(["GET", "HEAD", "DELETE"])
/** A request's line and headers, ending with the empty line. */
const requestHead = (
  method: string,
  target: MeiliTarget,
  headers: Readonly<Record<string, string>>,
  body: string | Uint8Array | undefined
) => {
  const length =
    body !== undefined
      ? `content-length: ${Buffer.byteLength(body)}\r\n`
      : BODYLESS.has(method)
        ? ""
        : "content-length: 0\r\n"
  return `${method} ${target.path} HTTP/1.1\r\nhost: ${target.host}\r\n${linesOf(headers)}${length}\r\n`
}
/** POSTs that change nothing (searches), so safe to send again (http1Pool.ts). */
const READ_ONLY_POST = /\/(search|multi-search|similar|facet-search|documents\/fetch)(\?|$)/
/** A request Meilisearch may get twice without effect: a read. */
export const isRepeatable = (method: string, path: string) =>
  method === "GET" || method === "HEAD" || (method === "POST" && READ_ONLY_POST.test(path))

/** Keep-alive pools to the Meilisearch servers reached over http, by host:port. */
const pools = new Map<string, Http1Pool>()
const poolFor = (target: MeiliTarget) => {
  let pool = pools.get(target.host)
  if (pool === undefined) {
    pool = new Http1Pool(target.hostname, Number(target.port === "" ? 80 : target.port))
    pools.set(target.host, pool)
  }
  return pool
}

/** Meilisearch's answer as the client would see it: parsed JSON, or its error types. */
const meiliAnswer = (target: MeiliTarget, status: number, body: Buffer): { error?: Error; answer?: unknown } => {
  const text = body.toString("utf8")
  let parsed: unknown
  try {
    parsed = text === "" ? undefined : JSON.parse(text)
  } catch (error) {
    return { error: new MeilisearchRequestError(target.href, error) }
  }
  if (status >= 200 && status < 300) return { answer: parsed }
  // (a Response takes 200-599 only)
  if (status < 200 || status > 599)
    return { error: new MeilisearchRequestError(target.href, new Error(`HTTP status ${status}`)) }
  return {
    error: new MeilisearchApiError(new Response(text, { status }), parsed as MeilisearchErrorResponse | undefined)
  }
}

/**
 * One request to Meilisearch; `done` gets its parsed JSON answer or an error,
 * exactly once. The search path calls this directly with headers it built
 * once: the client's own request plumbing (URL and Headers objects per
 * call) showed in the search profile, and so did a promise, an AbortSignal
 * and a racing timeout fiber per search. Over http the request goes through
 * a keep-alive pool of plain sockets (http1Pool.ts), over https through
 * node:https. `deadline` bounds the whole exchange with one timer. The
 * function returned abandons the request (`done` is not called after it).
 */
export const sendMeiliRequest = (
  target: MeiliTarget,
  method: string,
  headers: Readonly<Record<string, string>>,
  body: string | Uint8Array | undefined,
  deadline: MeiliDeadline | undefined,
  done: (error: Error | undefined, answer?: unknown) => void
): (() => void) => {
  let settled = false
  let timer: NodeJS.Timeout | undefined
  let probeTimer: NodeJS.Timeout | undefined
  const finish = (error: Error | undefined, answer?: unknown) => {
    if (settled) return
    settled = true
    if (timer !== undefined) clearTimeout(timer)
    if (probeTimer !== undefined) clearTimeout(probeTimer)
    done(error, answer)
  }
  const abandon =
    target.protocol === "https:"
      ? sendOverHttps(target, method, headers, body, finish)
      : poolFor(target).request(
          { head: requestHead(method, target, headers, body), body, repeatable: isRepeatable(method, target.path) },
          (error, answer) => {
            if (answer === undefined) return finish(new MeilisearchRequestError(target.href, error))
            answeredFrom(target)
            const { error: failed, answer: parsed } = meiliAnswer(target, answer.status, answer.body)
            finish(failed, parsed)
          }
        )
  if (deadline !== undefined) {
    const { silentMs, maxMs } = typeof deadline === "number" ? { silentMs: deadline, maxMs: deadline } : deadline
    const sentAt = performance.now()
    let lookedAt = sentAt
    // Only where busy and hung are told apart (a single bound is a plain timeout).
    const probes = silentMs < maxMs
    // the server process's CPU time halfway through a silent stretch, where it can be read
    let cpuAtProbe: number | undefined
    const armProbe = (inMs: number) => {
      if (!probes) return
      probeTimer = setTimeout(() => {
        if (settled) return
        cpuAtProbe = watched.get(target.host)?.cpuTime()
        const heard = lastAnswerAt.get(target.host) ?? Number.NEGATIVE_INFINITY
        if (performance.now() - heard >= inMs) probeHealth(target, silentMs)
      }, inMs)
    }
    const working = () => {
      const before = cpuAtProbe
      cpuAtProbe = undefined
      const watch = watched.get(target.host)
      if (watch === undefined) return false
      const usedCpu = before !== undefined && (watch.cpuTime() ?? before) > before
      return usedCpu || watch.wantsToRun()
    }
    const decide = () => {
      if (settled) return
      const now = performance.now()
      const waited = now - sentAt
      // (timers fire on whole milliseconds)
      const atMost = waited >= maxMs - 1
      const fail = (error: MeiliDeadlineError) => {
        finish(error)
        abandon()
      }
      // waited on because it was busy, up to the longest wait
      if (lookedAt > sentAt && atMost) return fail(new MeiliDeadlineError(maxMs, true))
      // another answer came since the last look, or its process used CPU or wants to: it is working, this request waits its turn
      const busy = (lastAnswerAt.get(target.host) ?? Number.NEGATIVE_INFINITY) > lookedAt || working()
      if (!busy) return fail(new MeiliDeadlineError(silentMs))
      if (atMost) return fail(new MeiliDeadlineError(maxMs, true))
      lookedAt = now
      const next = Math.min(silentMs, maxMs - waited)
      timer = setTimeout(expire, next)
      armProbe(next / 2)
    }
    // Timers run before I/O in a turn of the event loop: after a turn held
    // long (a loaded machine), answers that came meanwhile are still unread
    // when this timer fires. Decided once they are read, a search answered
    // in time is not taken for one that was not.
    const expire = () => {
      setImmediate(decide)
    }
    timer = setTimeout(expire, silentMs)
    armProbe(silentMs / 2)
  }
  return () => {
    settled = true
    if (timer !== undefined) clearTimeout(timer)
    if (probeTimer !== undefined) clearTimeout(probeTimer)
    abandon()
  }
}

/** The same over node:https (a Meilisearch reached over TLS). */
const sendOverHttps = (
  target: MeiliTarget,
  method: string,
  headers: Readonly<Record<string, string>>,
  body: string | Uint8Array | undefined,
  finish: (error: Error | undefined, answer?: unknown) => void
): (() => void) => {
  const request = https.request(
    {
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      path: target.path,
      method,
      headers: body === undefined ? headers : { ...headers, "content-length": Buffer.byteLength(body) },
      agent: httpsAgent
    },
    (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("error", (error) => finish(new MeilisearchRequestError(target.href, error)))
      response.on("end", () => {
        answeredFrom(target)
        const { error, answer } = meiliAnswer(target, response.statusCode ?? 0, Buffer.concat(chunks))
        finish(error, answer)
      })
    }
  )
  request.setNoDelay(true)
  request.on("error", (error) => finish(new MeilisearchRequestError(target.href, error)))
  request.end(body)
  return () => request.destroy()
}

/** The Meilisearch client's transport: one request as a promise of its parsed answer; an abort of the signal abandons it. */
export const meiliHttpClient = (input: string | URL | Request, init?: RequestInit): Promise<unknown> => {
  const target = meiliTarget(new URL(typeof input === "string" || input instanceof URL ? input : input.url))
  const body = typeof init?.body === "string" ? init.body : init?.body == null ? undefined : String(init.body)
  const signal = init?.signal ?? undefined
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new MeilisearchRequestError(target.href, signal.reason))
    const onAbort = () => {
      abandon()
      reject(new MeilisearchRequestError(target.href, signal?.reason))
    }
    const abandon = sendMeiliRequest(
      target,
      init?.method ?? "GET",
      headersOf(init),
      body,
      undefined,
      (error, answer) => {
        signal?.removeEventListener("abort", onAbort)
        if (error === undefined) resolve(answer)
        else reject(error)
      }
    )
    signal?.addEventListener("abort", onAbort, { once: true })
  })
}
