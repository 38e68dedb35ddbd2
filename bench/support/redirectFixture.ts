import { Effect, Exit, Layer, Option, Redacted, References, Scope } from "effect"
import { randomBytes } from "node:crypto"
import { mkdirSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { resolve } from "node:path"
import { Database } from "../../infra/Database.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { startMeili } from "../../infra/MeiliServer.ts"
import { makeService } from "../../service.ts"
import { startClickTrail, trailNumbers } from "../../test/support/clickTrail.ts"
import { startServerProcess } from "../../test/support/serverProcess.ts"

// What the redirect benches share: the bare node:http baseline (and the ids
// it answers), the load's headers; for the in-process and PostgreSQL benches,
// links seeded straight into the store, one Meilisearch for every service they
// start (so a SIGKILLed server leaves no orphan search engine behind), and the
// crash phases run against `npm start` in a child process.
export const LINKS = 1_000
export const CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
export const HEADERS = { "user-agent": CHROME, accept: "text/html" }
export const ids = Array.from({ length: LINKS }, (_, i) => `bench${String(i).padStart(7, "0")}`)
export const paths = ids.map((id) => `/t/${id}`)
const destination = (id: string, i: number) =>
  `https://www.awin1.com/cread.php?awinmid=1001&awinaffid=111111&clickref=${id}&ued=${encodeURIComponent(`https://shop.example/p/${i}`)}`

export const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length % 2 === 1
    ? sorted[(sorted.length - 1) / 2]
    : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2
}

/** The baseline: node:http answering the same 302 (same headers) from a Map. */
export const startBare = async (): Promise<{ url: string; server: Server }> => {
  const table = new Map(ids.map((id, i) => [id, destination(id, i)]))
  const server = createServer((req, res) => {
    const location = table.get((req.url ?? "").split("?", 1)[0].slice(3))
    if (location === undefined) {
      res.writeHead(404).end()
      return
    }
    res
      .writeHead(302, {
        location,
        "content-length": "0",
        "cache-control": "private, no-store",
        "x-robots-tag": "noindex"
      })
      .end()
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  const address = server.address()
  return { url: `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`, server }
}

/** Stores the bench links (DuckDB Appender, one transaction). */
export const seedLinks = Effect.gen(function* () {
  const db = yield* Database
  yield* db.transaction((tx) =>
    tx.append("tracking_links", (appender) => {
      const now = new Date().toISOString()
      ids.forEach((id, i) => {
        for (const value of [
          id,
          null,
          "bench",
          `https://shop.example/p/${i}`,
          `https://shop.example/p/${i}`,
          `https://shop.example/p/${i}`,
          destination(id, i),
          "awin:1001",
          "awin",
          null,
          "match",
          now,
          null, // unaffiliated_at
          null // market: every market's
        ]) {
          if (value === null) appender.appendNull()
          else appender.appendVarchar(value)
        }
        appender.endRow()
      })
    })
  )
})

export interface BenchMeili {
  readonly url: string
  readonly key: string
  readonly close: () => Promise<void>
}

/** One Meilisearch under data/var/ (git-ignored), removed on close. */
export const startBenchMeili = async (name: string): Promise<BenchMeili> => {
  const dir = resolve(`data/var/${name}-${process.pid}`)
  const scope = Effect.runSync(Scope.make())
  const key = randomBytes(16).toString("hex")
  const meili = await Effect.runPromise(startMeili({ dataDir: dir, masterKey: key }).pipe(Scope.provide(scope)))
  return {
    url: meili.url,
    key,
    close: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** Builds the service in this process on `dataDir` (start-up replays the click journal), runs `f`, closes it. */
export const withServiceOn = async <A>(
  dataDir: string,
  meili: BenchMeili,
  f: Effect.Effect<A, unknown, Database>
): Promise<A> => {
  const scope = Effect.runSync(Scope.make())
  const config = AppConfig.layerWith({
    dataDir,
    meiliUrl: Option.some(meili.url),
    meiliMasterKey: Option.some(Redacted.make(meili.key))
  })
  try {
    const context = await Effect.runPromise(
      Layer.buildWithScope(makeService(config), scope).pipe(Effect.provideService(References.MinimumLogLevel, "Warn"))
    )
    return await Effect.runPromise(Effect.provide(f, context))
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

export interface CrashResult {
  readonly answered: number
  readonly lost: number
  /** Lost clicks answered more than `windowMs` before the signal (must be 0). */
  readonly lostBeforeWindow: number
  /** How long before the signal the oldest lost click was answered (ms). */
  readonly oldestLostMs: number
  readonly duplicates: number
}

/**
 * `npm start` in a child process under a click load for `seconds`, then
 * `signal`; the service is started again on the same DATA_DIR and every
 * answered click is looked up by its numbered referrer.
 */
export const crashUnderLoad = async (options: {
  readonly signal: "SIGTERM" | "SIGKILL"
  readonly seconds: number
  readonly windowMs: number
  readonly meili: BenchMeili
}): Promise<CrashResult> => {
  const dataDir = resolve(`data/var/bench-redirect-${options.signal.toLowerCase()}-${process.pid}`)
  rmSync(dataDir, { recursive: true, force: true })
  mkdirSync(dataDir, { recursive: true })
  try {
    await withServiceOn(dataDir, options.meili, seedLinks)
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      MEILI_URL: options.meili.url,
      MEILI_MASTER_KEY: options.meili.key,
      MEILI_INDEX_PREFIX: `bench${process.pid}_`
    })
    const trail = startClickTrail({ url: server.url, path: paths[0], connections: 32, userAgent: CHROME })
    let signalledAt = 0
    try {
      await new Promise((done) => setTimeout(done, options.seconds * 1000))
    } finally {
      signalledAt = Date.now()
      server.child.kill(options.signal)
      await server.exited
      await trail.stop()
    }
    const referrers = await withServiceOn(
      dataDir,
      options.meili,
      Effect.flatMap(Database, (db) => db.query<{ referrer: string | null }>("SELECT referrer FROM clicks"))
    )
    const stored = trailNumbers(referrers.map((r) => r.referrer))
    const answered = trail.answeredAt.flatMap((at, n) => (at === undefined ? [] : [n]))
    const lost = answered.filter((n) => !stored.has(n))
    return {
      answered: answered.length,
      lost: lost.length,
      lostBeforeWindow: lost.filter((n) => trail.answeredAt[n] < signalledAt - options.windowMs).length,
      oldestLostMs: Math.max(0, ...lost.map((n) => signalledAt - trail.answeredAt[n])),
      duplicates: referrers.length - stored.size
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
