import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database } from "../../infra/Database.ts"
import { insertCatalog, NETWORKS, PROGRAMS } from "../support/catalogFixture.ts"
import { postJson } from "../support/http.ts"
import { type RunningService, startService } from "../support/TestService.ts"

// Catalog changes committed by another writer (on PostgreSQL: the worker)
// reach this process through the catalog_version row, polled every
// CATALOG_POLL_MS. Here the "other writer" is the test itself, writing
// straight into the tables, which no in-process hook sees: only the version
// bump tells the service, and the effect is observed over HTTP.
const POLL_MS = 100

let service: RunningService
let key: string
const auth = () => ({ authorization: `Bearer ${key}` })
const sql = (statement: string, params: ReadonlyArray<string> = []) =>
  service.run(Effect.flatMap(Database, (db) => db.run(statement, params)))
const bump = () => sql("UPDATE catalog_version SET version = version + 1, changed_at = current_timestamp WHERE id = 1")
const match = (url: string) => postJson(`${service.url}/api/v1/links/match`, { url }, auth())
const click = async (id: string) =>
  (
    await fetch(`${service.url}/t/${id}`, {
      redirect: "manual",
      headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0" }
    })
  ).headers.get("location")
const appliedChanges = async () => {
  const text = await (
    await fetch(`${service.url}/metrics`, { headers: { authorization: "Bearer test-admin-token" } })
  ).text()
  return Number(/^catalog_changes_applied_total (\d+)/m.exec(text)?.[1] ?? "NaN")
}
/** Polls `probe` until it returns `expected`, for at most `ms`; returns the elapsed time. */
const until = async <A>(probe: () => Promise<A>, expected: A, ms: number) => {
  const started = performance.now()
  while (performance.now() - started < ms) {
    if ((await probe()) === expected) return performance.now() - started
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  expect(await probe()).toEqual(expected)
  return performance.now() - started
}

beforeAll(async () => {
  service = await startService({ catalogPollMs: POLL_MS })
  key = (await postJson(`${service.url}/api/v1/partners/register`, { name: "Replica Co", email: "r@x.example" })).body
    .api_key
})
afterAll(() => service?.close())

describe("catalog changes from another writer", () => {
  it("a programme written straight into the tables becomes matchable once the catalog version moves", async () => {
    const url = "https://www.example-store.com/p/42"
    expect((await match(url)).body.matched).toBe(false) // empty catalog; the matcher just checked its tables
    const before = await appliedChanges()
    await service.run(
      insertCatalog(
        NETWORKS,
        PROGRAMS.filter((p) => p.domains.includes("example-store.com"))
      )
    )
    await bump()
    // The matcher reloads on the follower's event, not on a probe of its own.
    const elapsed = await until(async () => (await match(url)).body.matched, true, 2_000)
    expect(elapsed).toBeLessThan(2_000)
    expect(await appliedChanges()).toBeGreaterThan(before)
  })

  it("a link moved by another writer redirects to its new destination after the bump, not before", async () => {
    const created = await match("https://www.example-store.com/p/7")
    expect(created.status).toBe(200)
    const id: string = created.body.link.tracking_id
    const first = await click(id)
    expect(first).toMatch(/^https:\/\//) // now in this process's redirect cache
    // what the worker's re-resolution writes: the link, and its audit row
    await sql("UPDATE tracking_links SET affiliate_url = $1 WHERE id = $2", ["https://moved.example/p/7", id])
    await sql(
      `INSERT INTO link_program_changes VALUES ($1, current_timestamp, 'cj:2002', 'cj', 'cj:2002', 'cj', 'test', $2, $3)`,
      [id, first!, "https://moved.example/p/7"]
    )
    await new Promise((resolve) => setTimeout(resolve, 5 * POLL_MS))
    expect(await click(id)).toBe(first) // no bump: the cache still answers (what the version row is for)
    await bump()
    await until(() => click(id), "https://moved.example/p/7", 2_000)
  })
})
