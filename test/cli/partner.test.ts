import { Effect } from "effect"
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort } from "../../infra/MeiliServer.ts"
import { PipelineRunner } from "../../pipelines/PipelineRunner.ts"
import { SearchSync } from "../../pipelines/search/SearchSync.ts"
import { insertProducts } from "../support/catalogFixtures.ts"
import { getJson } from "../support/http.ts"
import { startService, tempDir, type RunningService } from "../support/TestService.ts"
import { cleanEnv, runCli } from "./partnerCli.ts"

// The partner CLI as a partner uses it: a child process talking over real
// HTTP to the whole service (real DuckDB, real Meilisearch), with its config
// file in a temp folder.

// A merchant of the shipped sample catalog with exactly one programme (Awin).
const MERCHANT = "waterstones.com"
const PROGRAMME = { id: "awin:7050", name: "Waterstones" }

describe("partner CLI against the running service", () => {
  let service: RunningService
  let home: ReturnType<typeof tempDir>
  let configFile: string
  let env: Record<string, string>
  let tag: string
  let apiKey: string

  const cli = (...args: Array<string>) => runCli(args, env)

  beforeAll(async () => {
    service = await startService({ feedsConfigPath: "config/feeds.json" })
    // the shipped sample networks and programmes, through the real catalog pipeline
    await service.run(PipelineRunner.use((runner) =>
      Effect.forEach(["networks", "programs"], (feed) => runner.run(feed, "manual"), { discard: true })
    ))
    await service.run(Effect.gen(function*() {
      yield* insertProducts([
        { itemId: "cli-1", title: "Kestrel Wireless Earbuds", brand: "Kestrel", price: 79.99 },
        { itemId: "cli-2", title: "Kestrel Over-Ear Headphones", brand: "Kestrel", price: 149 }
      ])
      yield* (yield* SearchSync).syncProducts()
    }))
    home = tempDir("partner-cli-")
    configFile = join(home.dir, "cli", "config.json")
    env = cleanEnv(home.dir, { AFFILIATE_CLI_CONFIG: configFile })
  })
  afterAll(async () => {
    await service?.close()
    home?.rm()
  })

  it("init registers, stores url, key, tag and partner id with mode 600, and warns the key is shown once", async () => {
    const run = await cli("init", "--name", "CLI Test Partner", "--email", "cli@partner.test", "--app-url",
      "https://partner.test/app", "--description", "CLI contract test", "--url", service.url)
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    const stored = JSON.parse(readFileSync(configFile, "utf8"))
    expect(stored).toEqual({ url: service.url, api_key: expect.stringMatching(/^ak_/), tag: expect.any(String), partner_id: expect.any(Number) })
    expect(statSync(configFile).mode & 0o777).toBe(0o600)
    tag = stored.tag
    apiKey = stored.api_key
    expect(tag).toMatch(/^cli-test-partner/)
    expect(run.stdout).toContain(`Tag:`)
    expect(run.stdout).toContain(tag)
    expect(run.stdout).toMatch(/shown only this once/)
    // the stored key is a working key
    expect((await getJson(`${service.url}/api/v1/partners/me`, { authorization: `Bearer ${apiKey}` })).status).toBe(200)
  })

  it("init refuses to overwrite an existing config (its key would be lost) unless --force", async () => {
    const before = readFileSync(configFile, "utf8")
    const run = await cli("init", "--name", "Other", "--email", "o@partner.test", "--app-url", "https://o.test", "--url", service.url)
    expect(run.code).toBe(1)
    expect(run.stderr).toContain("Already registered")
    expect(run.stdout).toBe("")
    expect(readFileSync(configFile, "utf8")).toBe(before)
  })

  it("init reports the API's validation error on stderr, exits 1 and writes no config", async () => {
    const otherConfig = join(home.dir, "invalid", "config.json")
    const run = await runCli(
      ["init", "--name", "Bad Email", "--email", "not-an-email", "--app-url", "https://x.test", "--url", service.url],
      { ...env, AFFILIATE_CLI_CONFIG: otherConfig }
    )
    expect(run.code).toBe(1)
    expect(run.stdout).toBe("")
    expect(run.stderr).toMatch(/API error 400 \(\w+\): .*email/)
    expect(existsSync(otherConfig)).toBe(false)
  })

  it("init --force registers anew and replaces the config", async () => {
    const forcedConfig = join(home.dir, "forced", "config.json")
    mkdirSync(join(home.dir, "forced"))
    copyFileSync(configFile, forcedConfig)
    const run = await runCli(
      ["init", "--force", "--name", "CLI Test Partner", "--email", "cli2@partner.test", "--app-url", "https://partner.test", "--json"],
      { ...env, AFFILIATE_CLI_CONFIG: forcedConfig }
    )
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    const body = JSON.parse(run.stdout) // --json: the server's answer unchanged
    expect(body.partner.tag).toBe(`${tag}-2`) // same name: the server deduplicates the tag
    expect(JSON.parse(readFileSync(forcedConfig, "utf8"))).toEqual({
      url: service.url, // from the replaced config: no --url needed
      api_key: body.api_key,
      tag: body.partner.tag,
      partner_id: body.partner.id
    })
    expect(statSync(forcedConfig).mode & 0o777).toBe(0o600)
  })

  let trackingUrl: string

  it("match prints the tracking URL, programme, network and commission type, attributed to the partner", async () => {
    const merchantUrl = `https://www.${MERCHANT}/p/kestrel-earbuds?color=black`
    const run = await cli("match", merchantUrl)
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    const printed = run.stdout.match(/Tracking URL:\s+(\S+)/)
    expect(printed).not.toBeNull()
    trackingUrl = printed![1]
    expect(trackingUrl.startsWith(`${service.url}/t/`)).toBe(true)
    expect(run.stdout).toContain(`Programme:     ${PROGRAMME.name} (${PROGRAMME.id})\n`)
    expect(run.stdout).toMatch(/Network:\s+awin\n/)
    expect(run.stdout).toContain(`Domain:        ${MERCHANT}\n`)
    expect(run.stdout).toMatch(/Commission:\s+CPS\n/)
    expect(run.stdout).toMatch(/Affiliate URL:\s+https:\/\/www\.awin1\.com\/cread\.php\?awinmid=7050&/)

    const json = await cli("match", merchantUrl, "--json")
    expect(json.code).toBe(0)
    const body = JSON.parse(json.stdout)
    expect(body.matched).toBe(true)
    expect(body.link.tracking_url).toBe(trackingUrl) // same partner + same URL: the same link
    expect(body.link.original_url).toBe(merchantUrl)
    expect(body.program).toMatchObject({ id: PROGRAMME.id, network: "awin" })
  })

  it("match explains why an unknown merchant is not matched, and exits 0", async () => {
    const unknownUrl = "https://unknown-merchant-for-cli.example.org/item/1"
    const [run, asJson] = await Promise.all([cli("match", unknownUrl), cli("match", unknownUrl, "--json")])
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^Not matched \(no_program\): \S+/)
    const json = JSON.parse(asJson.stdout)
    expect(json.matched).toBe(false)
    expect(json.reason).toBe("no_program")
    expect(json.link).toBeNull()
  })

  it("a non-URL for match and an out-of-range --limit are the API's 400 naming the field, on stderr with exit 1", async () => {
    const [run, limit] = await Promise.all([cli("match", "javascript:alert(1)"), cli("links", "--limit", "0")])
    expect(run.code).toBe(1)
    expect(run.stdout).toBe("")
    expect(run.stderr).toMatch(/API error 400 .*url/)
    expect(limit.code).toBe(1)
    expect(limit.stdout).toBe("")
    expect(limit.stderr).toMatch(/API error 400 .*limit/)
  })

  it("links lists the partner's links as a table and as raw JSON", async () => {
    const [run, asJson] = await Promise.all([cli("links", "--limit", "10"), cli("links", "--json")])
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    const lines = run.stdout.split("\n")
    expect(lines[0]).toMatch(/^TRACKING URL\s+PROGRAMME\s+NETWORK\s+SOURCE\s+CREATED\s+ORIGINAL URL$/)
    expect(lines[1]).toMatch(/^-+( +-+)+$/)
    expect(lines[2]).toMatch(new RegExp(`^${trackingUrl}\\s+awin:7050\\s+awin\\s+match\\s+\\d{4}-\\d\\d-\\d\\d\\s+https://www\\.${MERCHANT}`))
    expect(run.stdout).toMatch(/Showing 1-1 of 1\.\n?$/)

    const json = JSON.parse(asJson.stdout)
    expect(json.pagination).toMatchObject({ offset: 0, total: 1, next_offset: null })
    expect(json.data.map((link: { tracking_url?: string }) => link.tracking_url)).toContain(trackingUrl)
  })

  it("stats shows the partner's clicks, conversions and revenue, and the per-link table", async () => {
    // one human click on the link, then wait until the batched click writer has stored it
    const click = await fetch(trackingUrl, { redirect: "manual", headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0" } })
    expect(click.status).toBe(302)
    const deadline = Date.now() + 10_000
    for (;;) {
      const me = (await getJson(`${service.url}/api/v1/partners/me`, { authorization: `Bearer ${apiKey}` })).body
      if (me?.totals?.clicks === 1 || Date.now() > deadline) break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }

    const [run, asJson] = await Promise.all([cli("stats"), cli("stats", "--json")])
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(new RegExp(`Partner:\\s+CLI Test Partner \\(tag ${tag},`))
    expect(run.stdout).toMatch(/Clicks:\s+1\n/)
    expect(run.stdout).toMatch(/Unique clicks:\s+1\n/)
    expect(run.stdout).toMatch(/Bot clicks:\s+0\n/)
    expect(run.stdout).toMatch(/Conversions:\s+0\n/)
    expect(run.stdout).toMatch(/Revenue:\s+0(\.0+)?\b.*\(pending 0(\.0+)?, approved 0(\.0+)?\)/)
    expect(run.stdout).toMatch(/Conversion rate:\s+0\.00%/)
    const table = run.stdout.slice(run.stdout.indexOf("Per link:"), run.stdout.indexOf("Per day"))
    expect(table.split("\n")[1]).toMatch(/^TRACKING ID\s+PROGRAMME\s+CLICKS\s+UNIQUE\s+BOTS\s+CONV\.\s+REVENUE\s+DESTINATION$/)
    expect(table).toMatch(new RegExp(`${trackingUrl.split("/t/")[1]}\\s+awin:7050\\s+1\\s+1\\s+0\\s+0\\s+`))

    const json = JSON.parse(asJson.stdout)
    expect(json.partner.tag).toBe(tag)
    // the day of the click, whichever UTC day the server counted it on
    const clickDay = json.days.find((day: { clicks: number }) => day.clicks === 1)?.date
    expect(run.stdout.slice(run.stdout.indexOf("Per day"))).toMatch(new RegExp(`\\n${clickDay}\\s+1\\s+1\\s+0\\s+0\\s+0`))
    expect(json.totals.clicks).toBe(1)
  })

  it("stats with an unknown key is the API's 401 on stderr; without any key it says how to get one", async () => {
    const [unknown, none] = await Promise.all([
      runCli(["stats"], { ...env, AFFILIATE_API_KEY: `ak_${"x".repeat(43)}` }),
      runCli(["stats", "--url", service.url], { ...env, AFFILIATE_CLI_CONFIG: join(home.dir, "none.json") })
    ])
    expect(unknown.code).toBe(1)
    expect(unknown.stdout).toBe("")
    expect(unknown.stderr).toMatch(/API error 401/)
    expect(unknown.stderr).toContain("AFFILIATE_API_KEY")

    expect(none.code).toBe(1)
    expect(none.stderr).toContain("needs an API key")
    expect(none.stderr).toContain("partner init")
  })

  it("search, networks and programs print tables and raw JSON", async () => {
    const [search, searchRaw, networks, networksRaw, programs, programsRaw] = await Promise.all([
      cli("search", "kestrel earbuds", "--limit", "5"),
      cli("search", "kestrel", "--json"),
      cli("networks", "--status", "active", "--q", "awin"),
      cli("networks", "--json"),
      cli("programs", "--domain", `shop.${MERCHANT}`),
      cli("programs", "--network", "awin", "--country", "GB", "--limit", "3", "--json")
    ])
    expect(search.stderr).toBe("")
    expect(search.code).toBe(0)
    expect(search.stdout.split("\n")[0]).toMatch(/^TITLE\s+PRICE\s+DEAL\s+STORE\s+PRODUCT ID$/)
    expect(search.stdout).toMatch(/Kestrel Wireless Earbuds\s+79\.99 USD\s+.*fixture:cli-1/)
    const searchJson = JSON.parse(searchRaw.stdout)
    expect(searchJson.data.length).toBeGreaterThanOrEqual(1)
    expect(searchJson.pagination).toMatchObject({ limit: 20, offset: 0 })

    expect(networks.stderr).toBe("")
    expect(networks.code).toBe(0)
    expect(networks.stdout.split("\n")[0]).toMatch(/^ID\s+NAME\s+STATUS\s+PROGRAMMES\s+REGIONS\s+WEBSITE$/)
    expect(networks.stdout).toMatch(/\nawin\s+Awin\s+active\s+\d+\s+GLOBAL\s+https:\/\/www\.awin\.com\n/)
    expect(networks.stdout).toMatch(/Showing 1-\d+ of \d+\./)
    const networksJson = JSON.parse(networksRaw.stdout)
    expect(networksJson.pagination).toMatchObject({ limit: 20, offset: 0, total: 122, next_offset: 20 })
    expect(networksJson.data).toHaveLength(20)

    expect(programs.stderr).toBe("")
    expect(programs.code).toBe(0)
    expect(programs.stdout.split("\n")[0]).toMatch(/^ID\s+NAME\s+STATUS\s+COUNTRY\s+COMMISSION\s+DOMAINS$/)
    expect(programs.stdout).toMatch(new RegExp(`\\n${PROGRAMME.id}\\s+${PROGRAMME.name}\\s+active\\s+\\S+\\s+CPS \\d+(\\.\\d+)?%\\s+${MERCHANT}\\n`))
    const programsJson = JSON.parse(programsRaw.stdout)
    expect(programsJson.data).toHaveLength(3)
    expect(programsJson.pagination).toMatchObject({ limit: 3, offset: 0, next_offset: 3 })
    for (const program of programsJson.data) expect(program).toMatchObject({ network_id: "awin", country: "GB" })
  })

  it("an unreachable server is named with its URL and how to start it; AFFILIATE_API_URL and --url override the stored URL", async () => {
    const envPort = await Effect.runPromise(freePort)
    const flagPort = await Effect.runPromise(freePort)
    const unreachableEnv = { ...env, AFFILIATE_API_URL: `http://127.0.0.1:${envPort}` }
    const [viaEnv, viaFlag] = await Promise.all([
      runCli(["links"], unreachableEnv),
      runCli(["networks", "--url", `http://127.0.0.1:${flagPort}/`], unreachableEnv)
    ])
    expect(viaEnv.code).toBe(1)
    expect(viaEnv.stdout).toBe("")
    expect(viaEnv.stderr).toContain(`not reachable at http://127.0.0.1:${envPort} (connection refused)`)
    expect(viaEnv.stderr).toContain("npm start")

    expect(viaFlag.code).toBe(1)
    expect(viaFlag.stderr).toContain(`not reachable at http://127.0.0.1:${flagPort} (connection refused)`)
  })

  it("a malformed --url or a broken config file is refused before any request; init --force gets past the broken file", async () => {
    const broken = join(home.dir, "broken.json")
    writeFileSync(broken, "{ not json", { mode: 0o600 })
    const brokenEnv = { ...env, AFFILIATE_CLI_CONFIG: broken }
    // The broken file must be read before init --force rewrites it, so these two run in order.
    const [run, unreadable] = await Promise.all([cli("links", "--url", "ftp://127.0.0.1/"), runCli(["links"], brokenEnv)])
    const forced = await runCli(
      ["init", "--force", "--name", "Broken Config", "--email", "b@partner.test", "--app-url", "https://b.test", "--url", service.url],
      brokenEnv
    )
    expect(unreadable.code).toBe(1)
    expect(unreadable.stderr).toContain(`The CLI config ${broken} is not valid`)
    expect(forced.stderr).toBe("")
    expect(forced.code).toBe(0)
    expect(JSON.parse(readFileSync(broken, "utf8"))).toMatchObject({ url: service.url, tag: "broken-config" })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain("--url: \"ftp://127.0.0.1/\" is not an absolute http(s) URL")
  })
})
