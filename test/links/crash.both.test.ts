import { Context, Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, inject, it } from "vitest"
import type { StoredClick } from "../../clicks/ClickJournal.ts"
import { journalDir, segmentPath } from "../../clicks/segmentFiles.ts"
import { CRASH_WINDOW_MS } from "../../clicks/ClickRecorder.ts"
import { Database } from "../../infra/Database.ts"
import { AppConfig, type AppConfigShape } from "../../infra/AppConfig.ts"
import { replicaId } from "../../clicks/replicaId.ts"
import { makeService } from "../../service.ts"
import { startClickTrail, trailNumbers } from "../support/clickTrail.ts"
import { crashBound } from "../support/journalBehind.ts"
import { freshDatabaseUrl, testStore } from "../support/postgres.ts"
import { startServerProcess } from "../support/serverProcess.ts"
import { tempDir, testConfig } from "../support/TestService.ts"

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
const LINK = "CRASHLINK001"

/** Runs `f` against the service built in-process on `dataDir` (start-up replays the click journal), then closes it. */
const withService = async <A>(
  dataDir: string,
  f: Effect.Effect<A, unknown, Database>,
  overrides: Partial<AppConfigShape> = {}
) => {
  const scope = Effect.runSync(Scope.make())
  try {
    const context = await Effect.runPromise(
      Layer.buildWithScope(makeService(Layer.succeed(AppConfig, testConfig(dataDir, overrides))), scope)
    )
    return await Effect.runPromise(Effect.provide(f, Context.pick(Database)(context)))
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

const storedReferrers = (dataDir: string) =>
  withService(
    dataDir,
    Effect.flatMap(Database, (db) => db.query<{ referrer: string | null }>("SELECT referrer FROM clicks"))
  )

// The last journal segment stored: one row on DuckDB, one per replica (DATA_DIR) on PostgreSQL.
const setAppliedSeq = (dataDir: string, seq: number) =>
  Effect.flatMap(Database, (db) =>
    db.dialect === "postgres"
      ? db.run("INSERT INTO click_journal_replicas VALUES ($1, $2, now())", [replicaId(dataDir), seq])
      : db.run("UPDATE click_journal_state SET applied_seq = $1", [seq])
  )
const appliedSeq = (dataDir: string) =>
  Effect.flatMap(Database, (db) =>
    db.dialect === "postgres"
      ? db.query<{ seq: number }>(
          "SELECT applied_seq::INTEGER AS seq FROM click_journal_replicas WHERE replica_id = $1",
          [replicaId(dataDir)]
        )
      : db.query<{ seq: number }>("SELECT applied_seq::INTEGER AS seq FROM click_journal_state")
  )

/** On PostgreSQL a database of the test's own (the file's one holds the other test's clicks). */
const ownStore = async (): Promise<Partial<AppConfigShape>> =>
  testStore() === "postgres" ? { databaseUrl: Option.some(Redacted.make(await freshDatabaseUrl())) } : {}

describe("clicks survive a crash (click journal)", () => {
  const temp = tempDir("crash-")
  afterAll(() => temp.rm())

  it(`stores every click answered more than ${CRASH_WINDOW_MS} ms before a SIGKILL under load, exactly once`, async () => {
    await withService(
      temp.dir,
      Effect.flatMap(Database, (db) =>
        db.run(
          `INSERT INTO tracking_links VALUES ($1, NULL, 'crash', 'https://shop.example/p', 'https://shop.example/p', 'https://shop.example/p',
           'https://shop.example/p?ref=crash', NULL, NULL, NULL, 'match', now(), NULL, NULL)`,
          [LINK]
        )
      )
    )
    const { databaseUrl } = testConfig(temp.dir)
    const server = await startServerProcess({
      ...(Option.isSome(databaseUrl) ? { DATABASE_URL: Redacted.value(databaseUrl.value) } : {}),
      DATA_DIR: temp.dir,
      MEILI_URL: inject("meiliUrl"),
      MEILI_MASTER_KEY: inject("meiliKey"),
      MEILI_INDEX_PREFIX: `crash${process.pid}_`
    })
    const trail = startClickTrail({ url: server.url, path: `/t/${LINK}`, connections: 16, userAgent: CHROME })
    let killedAt = 0
    try {
      // Load for 2 s: many group commits, sealed segments and DuckDB inserts pass.
      await new Promise((resolve) => setTimeout(resolve, 2_000))
    } finally {
      killedAt = Date.now()
      server.child.kill("SIGKILL")
      await server.exited
      await trail.stop()
    }

    // Journal files are the service's alone.
    const journal = join(temp.dir, "click-journal")
    expect(statSync(journal).mode & 0o777).toBe(0o700)
    for (const name of readdirSync(journal)) expect(statSync(join(journal, name)).mode & 0o777, name).toBe(0o600)

    const answered = trail.answeredAt.flatMap((at, n) => (at === undefined ? [] : [n]))
    const due = answered.filter((n) => trail.answeredAt[n] < killedAt - CRASH_WINDOW_MS)
    expect(answered.length).toBeGreaterThanOrEqual(1_000)

    const referrers = (await storedReferrers(temp.dir)).map((r) => r.referrer)
    const stored = trailNumbers(referrers)
    expect(referrers.length, "a replayed click was stored twice").toBe(stored.size)
    const lost = answered.filter((n) => !stored.has(n))
    const window = Math.max(0, ...lost.map((n) => killedAt - trail.answeredAt[n]))
    // The bound holds while the journal keeps up. When the suite's load stalls its fdatasync, the service
    // must have said so before the kill, and what it lost must all be younger than the oldest late click
    // of the episode still open at the kill.
    const { behindSince, covers } = crashBound(server.output(), killedAt)
    console.log(
      `SIGKILL under load: ${answered.length} answered, ${due.length} more than ${CRASH_WINDOW_MS} ms before the kill; ` +
        `lost ${lost.length}, all answered within the last ${window} ms; ` +
        (behindSince === Infinity
          ? "the journal kept up at the kill"
          : `the journal was behind at the kill, from clicks answered ${killedAt - behindSince} ms before it`)
    )

    expect(
      due.filter((n) => !stored.has(n) && covers(trail.answeredAt[n])),
      "clicks answered before the crash window, while the journal kept up, but not stored"
    ).toEqual([])

    // A second start finds nothing left to replay: no click appears twice.
    const again = await storedReferrers(temp.dir)
    expect(again.length).toBe(referrers.length)
  })

  it("replays a segment once: one already stored (crash between COMMIT and unlink) is skipped, a torn last line is cut", async () => {
    const dir = tempDir("replay-")
    const store = await ownStore()
    try {
      await withService(dir.dir, setAppliedSeq(dir.dir, 4), store)
      const line = (n: number) =>
        JSON.stringify({
          a: Date.now(),
          i: LINK,
          p: null,
          t: "crash",
          h: "h",
          u: CHROME,
          r: `https://trail.example/${n}`,
          b: false,
          w: null,
          q: true
        } satisfies StoredClick) + "\n"
      const journal = journalDir(dir.dir)
      mkdirSync(journal, { recursive: true })
      writeFileSync(segmentPath(journal, 3), line(1))
      writeFileSync(segmentPath(journal, 5), line(2) + line(3) + line(4).slice(0, 40))
      const stored = await withService(
        dir.dir,
        Effect.flatMap(Database, (db) =>
          Effect.all([
            db.query<{ referrer: string }>("SELECT referrer FROM clicks ORDER BY referrer"),
            appliedSeq(dir.dir)
          ])
        ),
        store
      )
      expect(stored[0].map((r) => r.referrer)).toEqual(["https://trail.example/2", "https://trail.example/3"])
      expect(stored[1]).toEqual([{ seq: 5 }])
      expect(readdirSync(journal)).toEqual([])
    } finally {
      dir.rm()
    }
  })
})
