import { DuckDBInstance } from "@duckdb/node-api"
import { Effect, Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ClickRecorder } from "../../clicks/ClickRecorder.ts"
import { feedTrackingId } from "../../domain/links/feedTrackingId.ts"
import { isReservedTag, RESERVED_TAGS, SERVICE_TAGS } from "../../domain/links/serviceTags.ts"
import { Database } from "../../infra/Database.ts"
import { connectPostgres } from "../../infra/postgres/client.ts"
import { migratePostgres, migrationFiles } from "../../infra/postgres/migrate.ts"
import { migrations } from "../../infra/schema.ts"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { hashKey } from "../../partners/Partners.ts"
import { insertCatalog } from "../support/catalogFixture.ts"
import { insertProducts } from "../support/catalogFixtures.ts"
import { getJson, postJson } from "../support/http.ts"
import { freshDatabaseUrl, testStore } from "../support/postgres.ts"
import { startService, tempDir, type RunningService } from "../support/TestService.ts"

// The tags the service attributes its own links to (serviceTags.ts) are never
// a partner's: registration skips them, partners who held one are migrated,
// and a feed link's tag credits a partner only when it is that partner's.

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
const PRODUCT = "f1:lamp"

const click = (url: string, method: "GET" | "HEAD" = "GET") =>
  fetch(url, { method, redirect: "manual", headers: { "user-agent": CHROME } })

const rows = <T>(service: RunningService, sql: string, params: Array<string | number> = []) =>
  service.run(
    Effect.gen(function* () {
      yield* (yield* ClickRecorder).flush
      return yield* (yield* Database).query<T>(sql, params)
    })
  )

const register = (service: RunningService, name: string) =>
  postJson(`${service.url}/api/v1/partners/register`, { name, email: `${name.length}@x.example` })

describe("reserved tags over HTTP", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService()
    await service.run(
      Effect.gen(function* () {
        yield* insertCatalog()
        yield* (yield* ProgramMatcher).reload
        yield* insertProducts([
          {
            feed: "f1",
            itemId: "lamp",
            title: "Lamp",
            price: 10,
            storeDomain: "example-store.com",
            link: "https://example-store.com/lamp"
          }
        ])
      })
    )
  })
  afterAll(() => service?.close())

  it("registration never hands out a tag the service uses, whatever the case of the name", async () => {
    const names = ["API", "Ai Search", "WEB", "mcp", "Anon", "Partner", "ADMIN", "!!!"]
    for (const name of names) {
      const res = await register(service, name)
      expect(res.status, name).toBe(200)
      expect(isReservedTag(res.body.partner.tag), `${name} -> ${res.body.partner.tag}`).toBe(false)
    }
    const api = await register(service, "Api")
    expect(api.body.partner.tag).toMatch(/^api-\d+$/)
  })

  it("a click on a default feed link never appears in any partner's stats", async () => {
    const squatter = await register(service, "API")
    const key = squatter.body.api_key
    for (const tag of [SERVICE_TAGS.deals, SERVICE_TAGS.search, SERVICE_TAGS.web, SERVICE_TAGS.mcp]) {
      expect((await click(`${service.url}/t/${feedTrackingId(PRODUCT, tag)}`)).status).toBe(302)
    }
    const clicks = await rows<{ partner_id: number | null }>(
      service,
      "SELECT partner_id FROM clicks WHERE tag IN ('api', 'ai-search', 'web', 'mcp')"
    )
    expect(clicks).toHaveLength(4)
    expect(clicks.every((row) => row.partner_id === null)).toBe(true)
    const stats = await getJson(`${service.url}/api/v1/partners/me`, { authorization: `Bearer ${key}` })
    expect(stats.status).toBe(200)
    expect(stats.body.totals.clicks).toBe(0)
    expect(stats.body.links_total).toBe(0)
  })

  it("a partner's own tag on a feed link creates its one link and credits it", async () => {
    const partner = await register(service, "Lamp Lovers")
    const tag: string = partner.body.partner.tag
    expect((await click(`${service.url}/t/${feedTrackingId(PRODUCT, tag)}`)).status).toBe(302)
    const links = await rows<{ partner_id: number }>(service, "SELECT partner_id FROM tracking_links WHERE tag = $1", [
      tag
    ])
    expect(links.map((row) => Number(row.partner_id))).toEqual([partner.body.partner.id])
  })

  it("an unknown tag redirects as the default feed link and writes no row of its own", async () => {
    const before = await rows<{ n: number }>(service, "SELECT count(*)::INTEGER AS n FROM tracking_links")
    const viaDefault = await click(`${service.url}/t/${feedTrackingId(PRODUCT, SERVICE_TAGS.deals)}`)
    for (const junk of ["nobody", "junk-1", "junk-2", "anon", "admin"]) {
      const res = await click(`${service.url}/t/${feedTrackingId(PRODUCT, junk)}`)
      expect(res.status, junk).toBe(302)
      expect(res.headers.get("location"), junk).toBe(viaDefault.headers.get("location"))
    }
    const after = await rows<{ n: number }>(service, "SELECT count(*)::INTEGER AS n FROM tracking_links")
    expect(after[0].n).toBe(before[0].n)
    const junkRows = await rows<{ n: number }>(
      service,
      "SELECT count(*)::INTEGER AS n FROM tracking_links WHERE tag IN ('nobody', 'junk-1', 'junk-2', 'anon', 'admin')"
    )
    expect(junkRows[0].n).toBe(0)
    const clicks = await rows<{ tag: string; partner_id: number | null }>(
      service,
      "SELECT DISTINCT tag, partner_id FROM clicks WHERE tag IN ('nobody', 'junk-1', 'junk-2', 'anon', 'admin')"
    )
    expect(clicks).toEqual([])
  })

  it("HEAD on a feed link nobody clicked yet answers 302 and writes nothing; the first GET creates the link", async () => {
    const partner = await register(service, "Head First")
    const tag: string = partner.body.partner.tag
    const id = feedTrackingId(PRODUCT, tag)
    const count = async () =>
      (await rows<{ n: number }>(service, "SELECT count(*)::INTEGER AS n FROM tracking_links WHERE tag = $1", [tag]))[0]
        .n
    for (let n = 0; n < 3; n++) {
      const head = await click(`${service.url}/t/${id}`, "HEAD")
      expect(head.status).toBe(302)
      expect(head.headers.get("location")).toBe("https://example-store.com/lamp")
    }
    expect(await count()).toBe(0)
    const get = await click(`${service.url}/t/${id}`)
    expect(get.status).toBe(302)
    expect(await count()).toBe(1)
    // once stored, HEAD answers with the same affiliate link as GET
    const head = await click(`${service.url}/t/${id}`, "HEAD")
    expect(head.headers.get("location")).toBe(get.headers.get("location"))
  })
})

/** The seeded partner's key (a valid key format; only its hash is stored). */
const KEY = `ak_${"A".repeat(43)}`

/**
 * A store on the schema before the reserved-tags migration, with a partner
 * holding `api` and one (unaffiliated: this store has no catalog) link of theirs.
 */
const oldStore = async (): Promise<{ overrides: Parameters<typeof startService>[0]; cleanup: () => void }> => {
  const seed = [
    `INSERT INTO partners (name, email, tag, key_hash, key_prefix, created_at)
     VALUES ('API', 'api@x.example', 'api', '${hashKey(KEY)}', 'ak_AAAA', now())`,
    `INSERT INTO partners (name, email, tag, key_hash, key_prefix, created_at)
     VALUES ('Shop', 'shop@x.example', 'shop', '${hashKey(`ak_${"B".repeat(43)}`)}', 'ak_BBBB', now())`,
    `INSERT INTO tracking_links (id, partner_id, tag, original_url, normalized_url, destination_url, affiliate_url,
       program_id, network_id, product_id, source, created_at)
     SELECT 'OldApiLink01', id, 'api', 'https://example-store.com/old', 'https://example-store.com/old',
       'https://example-store.com/old', 'https://example-store.com/old', NULL, NULL, NULL, 'match', now()
     FROM partners WHERE tag = 'api'`
  ]
  if (testStore() === "postgres") {
    const url = await freshDatabaseUrl()
    const sql = connectPostgres(url, 1)
    try {
      const files = migrationFiles()
      const mine = files.find((file) => file.name === "reserved_tags")!
      await Effect.runPromise(
        migratePostgres(
          sql,
          files.filter((file) => file.version < mine.version)
        )
      )
      for (const statement of seed) await sql.unsafe(statement)
    } finally {
      await sql.end()
    }
    return { overrides: { databaseUrl: Option.some(Redacted.make(url)) }, cleanup: () => undefined }
  }
  const temp = tempDir()
  const instance = await DuckDBInstance.create(`${temp.dir}/catalog.duckdb`)
  const connection = await instance.connect()
  const mine = migrations.findIndex((statements) => statements.some((s) => s.includes("'ai-search', 'web'")))
  await connection.run("CREATE TABLE schema_version (version INTEGER NOT NULL)")
  for (let version = 1; version <= mine; version++) {
    for (const statement of migrations[version - 1]) await connection.run(statement)
    await connection.run(`INSERT INTO schema_version VALUES (${version})`)
  }
  for (const statement of seed) await connection.run(statement)
  connection.closeSync()
  instance.closeSync()
  return { overrides: { dataDir: temp.dir }, cleanup: temp.rm }
}

describe("partners holding a reserved tag are migrated", () => {
  let service: RunningService
  let cleanup = () => {}
  beforeAll(async () => {
    const store = await oldStore()
    cleanup = store.cleanup
    service = await startService(store.overrides)
  })
  afterAll(async () => {
    await service?.close()
    cleanup()
  })

  it("to <tag>_<id>, with their links still redirecting and listed under the new tag", async () => {
    const me = await getJson(`${service.url}/api/v1/partners/me`, { authorization: `Bearer ${KEY}` })
    expect(me.status).toBe(200)
    const id: number = me.body.partner.id
    expect(me.body.partner.tag).toBe(`api_${id}`)
    const redirect = await click(`${service.url}/t/OldApiLink01`)
    expect(redirect.status).toBe(302)
    expect(redirect.headers.get("location")).toBe("https://example-store.com/old")
    const listed = await getJson(`${service.url}/api/v1/links`, { authorization: `Bearer ${KEY}` })
    expect(listed.body.data.map((link: any) => [link.tracking_id, link.tag])).toEqual([["OldApiLink01", `api_${id}`]])
    const tags = await rows<{ tag: string }>(service, "SELECT tag FROM partners ORDER BY tag")
    expect(tags.map((row) => row.tag)).toEqual([`api_${id}`, "shop"])
  })

  it("the click on the old link still credits the partner", async () => {
    await service.run(Effect.flatMap(ClickRecorder, (recorder) => recorder.flush))
    const stats = await getJson(`${service.url}/api/v1/partners/me`, { authorization: `Bearer ${KEY}` })
    expect(stats.body.totals.clicks).toBeGreaterThanOrEqual(1)
  })
})

describe("the migrations name every reserved tag", () => {
  // A tag added to RESERVED_TAGS later needs a migration of its own for the partners already holding it.
  it("on DuckDB and on PostgreSQL", () => {
    const duckdb = migrations.find((statements) => statements.some((s) => s.includes("'ai-search', 'web'")))!.join("\n")
    const postgres = migrationFiles().find((file) => file.name === "reserved_tags")!.sql
    for (const tag of RESERVED_TAGS) {
      expect(duckdb, tag).toContain(`'${tag}'`)
      expect(postgres, tag).toContain(`'${tag}'`)
    }
  })
})
