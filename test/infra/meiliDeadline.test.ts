import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import http from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Worker } from "node:worker_threads"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SEARCH_DEADLINE } from "../../discovery/searchRequests.ts"
import { type MeiliDeadline, meiliTarget, sendMeiliRequest, watchMeiliProcess } from "../../infra/meiliHttpClient.ts"
import { processCpuTicks, processWantsToRun } from "../../infra/ProcessInfo.ts"

// A search's deadline tells a hung Meilisearch from a busy one. Busy: it
// keeps answering other requests (a big batch indexing on the same cores
// held searches seconds in its queue; the service answered those 503 though
// the engine answered them a moment later). Hung: it answers nothing (the
// real one, stopped with SIGSTOP, is test/discovery/outage.test.ts).
// Here the transport meets a loopback server whose searches take SLOW_MS
// while its other routes (tasks, health) answer at once, as Meilisearch's do
// while indexing, and one that answers nothing at all.

const SLOW_MS = 1_500
let server: http.Server
let hung: http.Server
let base: string
let hungBase: string
const healthAsked: Array<string> = []
const listen = async (created: http.Server) => {
  await new Promise<void>((resolve) => created.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(created.address() as AddressInfo).port}`
}
beforeAll(async () => {
  server = http.createServer((request, response) => {
    if (request.url?.endsWith("/health")) healthAsked.push(request.url)
    const answer = () => response.writeHead(200, { "content-type": "application/json" }).end('{"hits":[]}')
    if (request.url?.endsWith("/search")) setTimeout(answer, SLOW_MS)
    else answer()
  })
  hung = http.createServer(() => {})
  base = await listen(server)
  hungBase = await listen(hung)
})
afterAll(() => {
  for (const created of [server, hung]) {
    created.closeAllConnections()
    created.close()
  }
})

/** One search under `deadline` while `polling` keeps asking the task route; its outcome and how long it took. */
const search = (deadline: MeiliDeadline, polling: boolean, at = base) =>
  new Promise<{ error: Error | undefined; ms: number }>((resolve) => {
    const started = performance.now()
    let done = false
    const poll = () => {
      if (done) return
      sendMeiliRequest(meiliTarget(new URL(`${base}/tasks/1`)), "GET", {}, undefined, 10_000, () =>
        setTimeout(poll, 50)
      )
    }
    if (polling) poll()
    sendMeiliRequest(meiliTarget(new URL(`${at}/indexes/products/search`)), "POST", {}, "{}", deadline, (error) => {
      done = true
      resolve({ error, ms: performance.now() - started })
    })
  })

// (first: the other tests leave task polls answering for a moment after them)
it("gives up on an engine that answers nothing after the silent bound, well within 1 s", async () => {
  const { error, ms } = await search(SEARCH_DEADLINE, false, hungBase)
  expect(error?.name).toBe("MeiliDeadlineError")
  expect(error?.message).toBe(`Meilisearch answered nothing for ${SEARCH_DEADLINE.silentMs} ms`)
  expect(ms).toBeGreaterThanOrEqual(SEARCH_DEADLINE.silentMs - 50)
  expect(ms).toBeLessThan(SLOW_MS)
})

it("waits for a search the engine answers late while it answers other requests", async () => {
  const { error, ms } = await search(SEARCH_DEADLINE, true)
  expect(error).toBeUndefined()
  expect(ms).toBeGreaterThanOrEqual(SLOW_MS - 50)
})

it("waits for a search the engine answers late when nothing else is asked: its health route answers", async () => {
  const { error, ms } = await search(SEARCH_DEADLINE, false)
  expect(error).toBeUndefined()
  expect(ms).toBeGreaterThanOrEqual(SLOW_MS - 50)
  // asked once per silent stretch, not once per turn
  expect(healthAsked.length).toBeGreaterThan(0)
  expect(healthAsked.length).toBeLessThanOrEqual(Math.ceil(SLOW_MS / (SEARCH_DEADLINE.silentMs / 2)))
  expect(healthAsked.every((path) => path === "/health")).toBe(true)
})

it("gives up on a busy engine at the longest wait", async () => {
  const { error, ms } = await search({ silentMs: 200, maxMs: 700 }, true)
  expect(error?.name).toBe("MeiliDeadlineError")
  expect(error?.message).toContain("busy (answering other requests or working), did not answer this one within 700 ms")
  expect(ms).toBeGreaterThanOrEqual(650)
  expect(ms).toBeLessThan(SLOW_MS)
})

it("counts an answer that came while the event loop was held, before giving up on it", async () => {
  // a server on a thread of its own: it answers while this thread is held
  const other = new Worker(
    `const http = require("node:http"); const { parentPort } = require("node:worker_threads");
     const server = http.createServer((request, response) => setTimeout(() => response.end("{}"), 100));
     server.listen(0, "127.0.0.1", () => parentPort.postMessage(server.address().port));`,
    { eval: true }
  )
  try {
    const port = await new Promise<number>((resolve) => other.once("message", resolve))
    const started = performance.now()
    const outcome = new Promise<Error | undefined>((resolve) =>
      sendMeiliRequest(
        meiliTarget(new URL(`http://127.0.0.1:${port}/indexes/products/search`)),
        "POST",
        {},
        "{}",
        SEARCH_DEADLINE,
        resolve
      )
    )
    // the request out, then this thread held past the deadline (a loaded machine) in a turn's last
    // phase: the next turn runs the deadline's timer before it reads the answer waiting meanwhile
    await new Promise((resolve) => setTimeout(resolve, 10))
    await new Promise((resolve) =>
      setImmediate(() => {
        while (performance.now() - started < SEARCH_DEADLINE.silentMs + 300);
        resolve(undefined)
      })
    )
    expect(await outcome).toBeUndefined()
  } finally {
    await other.terminate()
  }
})

describe("an engine silent but working: its process's CPU time, or its threads wanting to run", () => {
  // A process of its own that answers nothing (every HTTP worker of a real
  // Meilisearch held by slow searches) and works (indexing) or is stopped.
  // `proc`: where its threads' states are read (a copy of its /proc entry
  // with a thread runnable: no test can keep a process runnable and off the
  // cores on demand).
  const engine = async (proc?: string) => {
    const child = spawn(
      process.execPath,
      [
        "-e",
        `const server = require("node:http").createServer(() => {});
         server.listen(0, "127.0.0.1", () => process.stdout.write(String(server.address().port) + "\\n"));
         setInterval(() => { const until = Date.now() + 40; while (Date.now() < until); }, 50);`
      ],
      { stdio: ["ignore", "pipe", "inherit"] }
    )
    const port = await new Promise<string>((resolve) =>
      child.stdout.once("data", (chunk) => resolve(String(chunk).trim()))
    )
    const unwatch = watchMeiliProcess(`127.0.0.1:${port}`, {
      cpuTime: () => processCpuTicks(child.pid!),
      wantsToRun: () => processWantsToRun(child.pid!, proc)
    })
    return {
      base: `http://127.0.0.1:${port}`,
      child,
      stop: () => {
        unwatch()
        child.kill("SIGKILL")
      }
    }
  }

  it("waits on it up to the longest wait", async () => {
    const working = await engine()
    try {
      const { error, ms } = await search({ silentMs: 400, maxMs: 1_500 }, false, working.base)
      expect(error?.message).toContain(
        "busy (answering other requests or working), did not answer this one within 1500 ms"
      )
      expect(ms).toBeGreaterThanOrEqual(1_450)
    } finally {
      working.stop()
    }
  })

  it("gives up on it after the silent bound once it is stopped (SIGSTOP): its CPU time stands still", async () => {
    const stopped = await engine()
    try {
      stopped.child.kill("SIGSTOP")
      const { error, ms } = await search({ silentMs: 400, maxMs: 1_500 }, false, stopped.base)
      expect(error?.message).toBe("Meilisearch answered nothing for 400 ms")
      // before the longest wait: 405-408 ms on a quiet machine; 1,076 ms once in a fresh-clone run,
      // this process's timers late under the suite's load (the message above says why it gave up)
      expect(ms).toBeLessThan(1_450)
    } finally {
      stopped.stop()
    }
  })

  it("waits on it while a thread of it is runnable, though its CPU time stands still (no core free for it)", async () => {
    const proc = mkdtempSync(join(tmpdir(), "proc-"))
    const waiting = await engine(proc)
    try {
      waiting.child.kill("SIGSTOP")
      const thread = join(proc, String(waiting.child.pid), "task", String(waiting.child.pid))
      mkdirSync(thread, { recursive: true })
      writeFileSync(join(thread, "stat"), `${waiting.child.pid} (node) R 1 ${"0 ".repeat(40)}\n`)
      const { error, ms } = await search({ silentMs: 400, maxMs: 1_500 }, false, waiting.base)
      expect(error?.message).toContain(
        "busy (answering other requests or working), did not answer this one within 1500 ms"
      )
      expect(ms).toBeGreaterThanOrEqual(1_450)
    } finally {
      waiting.stop()
      rmSync(proc, { recursive: true, force: true })
    }
  })
})
