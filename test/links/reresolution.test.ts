import { Effect, Exit, Layer, Scope } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LinkMatching } from "../../links/LinkMatching.ts"
import { AppConfig, type AppConfigShape } from "../../infra/AppConfig.ts"
import { Database } from "../../infra/Database.ts"
import { PipelineRunner } from "../../pipelines/PipelineRunner.ts"
import { makeService } from "../../service.ts"
import { cleanEnv, runCli } from "../cli/partnerCli.ts"
import { getJson, postJson } from "../support/http.ts"
import { type RunningService, startService, tempDir, testConfig } from "../support/TestService.ts"

// Links follow the catalog, end to end over HTTP: a programme closes in the
// programmes feed (Fat Brain Toys leaves ShareASale for Awin, as in the
// samples), a network closes in the networks feed; the feeds are re-run
// through the admin endpoint and the same tracking links redirect at once to
// the new affiliate URL, or to the plain destination, marked unaffiliated.
const ADMIN = { authorization: "Bearer test-admin-token" }
const sample = (name: string) =>
  readFileSync(new URL(`../../data/samples/${name}`, import.meta.url), "utf8")
    .trim()
    .split("\n")
const SAMPLE_NETWORKS = sample("networks.jsonl")
const SAMPLE_PROGRAMS = sample("programs.jsonl").map((line) => JSON.parse(line))

const program = (network: string, merchant: string, changes: Record<string, unknown> = {}) => {
  const found = SAMPLE_PROGRAMS.find((p) => p.network_id === network && p.merchant_id === merchant)
  expect(found, `${network}:${merchant} in the samples`).toBeDefined()
  return JSON.stringify({ ...found, ...changes })
}
/** The sample networks, with ShareASale still open (as it was before its programmes moved to Awin) or as sampled (closed). */
const networks = (shareasaleOpen: boolean) =>
  SAMPLE_NETWORKS.map((line) => {
    const network = JSON.parse(line)
    return network.id === "shareasale" && shareasaleOpen
      ? JSON.stringify({ ...network, status: "active", successor_id: null })
      : line
  }).join("\n")

const files = tempDir("reresolve-")
const networksFile = join(files.dir, "networks.jsonl")
const programsFile = join(files.dir, "programs.jsonl")
let service: RunningService
let key: string

const ingest = async (feed: string) => {
  const response = await postJson(`${service.url}/admin/ingest`, { feed, wait: true }, ADMIN)
  expect(response.status).toBe(200)
  expect(response.body.runs).toEqual([expect.objectContaining({ feed, status: "succeeded" })])
}
const click = async (id: string) => {
  const response = await fetch(`${service.url}/t/${id}`, {
    redirect: "manual",
    headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0" }
  })
  expect(response.status).toBe(302)
  return response.headers.get("location")!
}
const match = async (url: string) => {
  const response = await postJson(`${service.url}/api/v1/links/match`, { url }, { authorization: `Bearer ${key}` })
  expect(response.status).toBe(200)
  expect(response.body.matched).toBe(true)
  return response.body
}
const listLinks = async () => {
  const response = await getJson(`${service.url}/api/v1/links?limit=100`, { authorization: `Bearer ${key}` })
  expect(response.status).toBe(200)
  return new Map<string, any>(response.body.data.map((item: any) => [item.tracking_id, item]))
}

beforeAll(async () => {
  writeFileSync(networksFile, networks(true))
  writeFileSync(
    programsFile,
    [
      program("shareasale", "21049", { status: "active" }), // Fat Brain Toys, before the move
      program("shareasale", "98137", { status: "active" }), // Burpee, on ShareASale only (in this feed)
      program("awin", "7144", { status: "paused" }) // Fat Brain Toys on Awin, not yet open
    ].join("\n")
  )
  const feedsConfigPath = join(files.dir, "feeds.json")
  writeFileSync(
    feedsConfigPath,
    JSON.stringify({
      feeds: [
        { name: "networks", kind: "networks", format: "networks-jsonl", location: networksFile },
        { name: "programs", kind: "programs", format: "programs-jsonl", location: programsFile }
      ]
    })
  )
  service = await startService({ feedsConfigPath })
  await ingest("networks")
  await ingest("programs")
  const registered = await postJson(`${service.url}/api/v1/partners/register`, {
    name: "Toy Reviews",
    email: "toys@example.com"
  })
  key = registered.body.api_key
})
afterAll(async () => {
  await service?.close()
  files.rm()
})

describe("links when the catalog changes", () => {
  it("re-resolves a closed programme's link to the best active one, and a closed network's link to the plain destination", async () => {
    const toys = await match("https://www.fatbraintoys.com/toy_companies/magna-tiles/clear-colors-32.cfm?utm_source=x")
    const seeds = await match("https://www.burpee.com/tomato-better-boy-hybrid-prod000700.html")
    expect([toys.program.id, seeds.program.id]).toEqual(["shareasale:21049", "shareasale:98137"])
    const toysId = toys.link.tracking_id
    const seedsId = seeds.link.tracking_id
    // Clicked before the change: both targets are now in the redirect's cache.
    expect(await click(toysId)).toMatch(/^https:\/\/shareasale\.com\/r\.cfm\?.*afftrack=/)
    expect(await click(seedsId)).toMatch(/^https:\/\/shareasale\.com\/r\.cfm\?/)

    // 1. The programmes feed: Fat Brain Toys closes on ShareASale and opens on Awin.
    writeFileSync(
      programsFile,
      [
        program("shareasale", "21049"), // closed, as sampled
        program("shareasale", "98137", { status: "active" }),
        program("awin", "7144") // active, as sampled
      ].join("\n")
    )
    await ingest("programs")
    const moved = new URL(await click(toysId))
    expect(moved.origin + moved.pathname).toBe("https://www.awin1.com/cread.php")
    expect(moved.searchParams.get("awinmid")).toBe("7144")
    expect(moved.searchParams.get("clickref")).toBe(toysId) // same tracking id: attribution continues
    expect(moved.searchParams.get("ued")).toBe(toys.link.destination_url)
    expect(await click(seedsId)).toMatch(/^https:\/\/shareasale\.com\//) // its programme is fine: untouched

    // 2. The networks feed: ShareASale closes; Burpee has no other programme in this catalog.
    writeFileSync(networksFile, networks(false))
    await ingest("networks")
    expect(await click(seedsId)).toBe(seeds.link.destination_url)
    expect(new URL(await click(toysId)).searchParams.get("clickref")).toBe(toysId)

    // The partner sees it in GET /api/v1/links, with the tracking ids and partner unchanged.
    const listed = await listLinks()
    expect(listed.get(toysId)).toMatchObject({
      program_id: "awin:7144",
      network_id: "awin",
      status: "affiliated",
      unaffiliated_since: null,
      affiliate_url: moved.href,
      last_change: { old_program_id: "shareasale:21049", new_program_id: "awin:7144", reason: "program_closed" }
    })
    expect(listed.get(seedsId)).toMatchObject({
      program_id: null,
      network_id: null,
      status: "unaffiliated",
      affiliate_url: seeds.link.destination_url,
      unaffiliated_since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      last_change: { old_program_id: "shareasale:98137", new_program_id: null, reason: "network_closed" }
    })

    // ...and in `aff links`: the unaffiliated link says so where its programme was.
    const cli = await runCli(["links", "--server", service.url], cleanEnv(files.dir, { AFF_API_KEY: key }))
    expect(cli.code).toBe(0)
    const row = (id: string) => cli.stdout.split("\n").find((line) => line.includes(`/t/${id}`)) ?? ""
    expect(row(seedsId)).toMatch(/\bunaffiliated\b/)
    expect(row(toysId)).toMatch(/\bawin:7144\b/)

    // Each change is recorded with old and new programme and time.
    const records = await service.run(
      Effect.gen(function* () {
        const db = yield* Database
        return yield* db.query<Record<string, any>>(
          `SELECT tracking_id, old_program_id, new_program_id, reason, changed_at, old_affiliate_url, new_affiliate_url
         FROM link_program_changes ORDER BY changed_at, tracking_id`
        )
      })
    )
    expect(records.map((r) => [r.tracking_id, r.old_program_id, r.new_program_id, r.reason])).toEqual([
      [toysId, "shareasale:21049", "awin:7144", "program_closed"],
      [seedsId, "shareasale:98137", null, "network_closed"]
    ])
    for (const record of records) expect(record.changed_at).toBeInstanceOf(Date)
    expect(records[0].new_affiliate_url).toBe(moved.href)
    expect(records[1].old_affiliate_url).toMatch(/^https:\/\/shareasale\.com\//)

    // Matching the same URL again returns the same, re-resolved link.
    const again = await match("https://www.fatbraintoys.com/toy_companies/magna-tiles/clear-colors-32.cfm")
    expect([again.created, again.link.tracking_id, again.link.affiliate_url, again.program.id]).toEqual([
      false,
      toysId,
      moved.href,
      "awin:7144"
    ])
  })

  it("an unaffiliated link is re-affiliated when an active programme covers its destination again", async () => {
    const seeds = [...(await listLinks()).values()].find((link) => link.status === "unaffiliated")
    expect(seeds).toBeDefined()
    writeFileSync(
      programsFile,
      [
        program("shareasale", "21049"),
        program("shareasale", "98137"),
        program("awin", "7144"),
        program("awin", "5445")
      ].join("\n")
    )
    await ingest("programs")
    const target = new URL(await click(seeds.tracking_id))
    expect([target.hostname, target.searchParams.get("awinmid"), target.searchParams.get("clickref")]).toEqual([
      "www.awin1.com",
      "5445",
      seeds.tracking_id
    ])
    expect((await listLinks()).get(seeds.tracking_id)).toMatchObject({
      status: "affiliated",
      program_id: "awin:5445",
      unaffiliated_since: null,
      last_change: { old_program_id: null, new_program_id: "awin:5445", reason: "program_available" }
    })
  })
})

/** The service on a data folder that outlives it, so a second start reopens the same DuckDB file. */
const boot = async (config: AppConfigShape) => {
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(Layer.buildWithScope(makeService(Layer.succeed(AppConfig, config)), scope))
  return {
    run: <A, E>(effect: Effect.Effect<A, E, any>) =>
      Effect.runPromise(Effect.provide(effect, context) as Effect.Effect<A, E>),
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

describe("a catalog changed while the server was down (the operator CLI ingests in-process then)", () => {
  it("is caught by the re-resolution pass the server makes when it starts", async () => {
    const dir = tempDir("reresolve-restart-")
    try {
      const programs = join(dir.dir, "programs.jsonl")
      writeFileSync(programs, program("awin", "5445")) // Burpee on Awin
      const feedsConfigPath = join(dir.dir, "feeds.json")
      writeFileSync(
        feedsConfigPath,
        JSON.stringify({
          feeds: [
            { name: "networks", kind: "networks", format: "networks-jsonl", location: "data/samples/networks.jsonl" },
            { name: "programs", kind: "programs", format: "programs-jsonl", location: programs }
          ]
        })
      )
      const config = testConfig(dir.dir, { feedsConfigPath })
      const first = await boot(config)
      for (const feed of ["networks", "programs"]) {
        expect((await first.run(PipelineRunner.use((runner) => runner.run(feed, "manual")))).status).toBe("succeeded")
      }
      const matched = await first.run(
        LinkMatching.use((matching) => matching.match(undefined, "https://www.burpee.com/seeds"))
      )
      expect(matched.kind).toBe("matched")
      const id = matched.kind === "matched" ? matched.link.id : ""
      await first.close()

      // What an in-process ingest does to the file while no server runs: the programme closes, no links are touched.
      const db = Database.layer.pipe(Layer.provide(Layer.succeed(AppConfig, config)))
      await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const database = yield* Database
            yield* database.run("UPDATE programs SET status = 'closed' WHERE id = 'awin:5445'")
          }).pipe(Effect.provide(db))
        )
      )

      const second = await boot(config)
      try {
        let link: Record<string, any> | undefined
        for (let i = 0; i < 100 && link?.unaffiliated_at == null; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50))
          link = (
            await second.run(
              Database.use((database) =>
                database.query<Record<string, any>>(
                  "SELECT program_id, affiliate_url, unaffiliated_at FROM tracking_links WHERE id = $1",
                  [id]
                )
              )
            )
          )[0]
        }
        expect(link).toMatchObject({ program_id: null, affiliate_url: "https://www.burpee.com/seeds" })
        expect(link!.unaffiliated_at).toBeInstanceOf(Date)
      } finally {
        await second.close()
      }
    } finally {
      dir.rm()
    }
  })
})
