import { Effect } from "effect"
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freeLoopbackPort } from "../../infra/freeLoopbackPort.ts"
import { PipelineRunner } from "../../pipelines/PipelineRunner.ts"
import { SearchSync } from "../../pipelines/search/SearchSync.ts"
import { insertProducts } from "../support/catalogFixtures.ts"
import { getJson } from "../support/http.ts"
import { startService, tempDir, type RunningService } from "../support/TestService.ts"
import { type CliRun, cleanEnv, runCli, runCliInTerminal } from "./partnerCli.ts"

// The partner CLI (`aff`) as a partner uses it: a child process talking over
// real HTTP to the whole service (real DuckDB, real Meilisearch), its config
// in a temp XDG_CONFIG_HOME. Independent commands run concurrently to keep the
// file fast, but never two that write or read-while-another-writes the same
// config file.

// A merchant of the shipped sample catalog with exactly one programme (Awin).
const MERCHANT = "waterstones.com"
const PROGRAMME = { id: "awin:7050", name: "Waterstones" }

/** A failure is exactly one line on stderr, prefixed with the command name, and nothing on stdout. */
const expectOneErrorLine = (run: CliRun, code: number, pattern: RegExp) => {
  expect(run.code).toBe(code)
  expect(run.stdout).toBe("")
  expect(run.stderr).toMatch(/^aff: [^\n]+\n$/)
  expect(run.stderr).toMatch(pattern)
}

describe("partner CLI against the running service", () => {
  let service: RunningService
  let home: ReturnType<typeof tempDir>
  let configDir: string
  let configFile: string
  let env: Record<string, string>
  let tag: string
  let apiKey: string

  const cli = (...args: Array<string>) => runCli(args, env)
  /** An environment with its own config file, for commands that must not touch the main one. */
  const envWithConfig = (file: string) => ({ ...env, AFF_CONFIG: file })

  beforeAll(async () => {
    service = await startService({ feedsConfigPath: "config/feeds.json" })
    // the shipped sample networks and programmes, through the real catalog pipeline
    await service.run(
      PipelineRunner.use((runner) =>
        Effect.forEach(["networks", "programs"], (feed) => runner.run(feed, "manual"), { discard: true })
      )
    )
    await service.run(
      Effect.gen(function* () {
        yield* insertProducts([
          {
            itemId: "cli-1",
            title: "Kestrel Wireless Earbuds",
            brand: "Kestrel",
            category: "Electronics",
            price: 79.99
          },
          {
            itemId: "cli-2",
            title: "Kestrel Over-Ear Headphones",
            brand: "Kestrel",
            category: "Electronics",
            price: 149
          }
        ])
        yield* (yield* SearchSync).syncProducts()
      })
    )
    home = tempDir("partner-cli-")
    configDir = join(home.dir, "xdg", "aff")
    configFile = join(configDir, "config.json")
    env = cleanEnv(home.dir, { XDG_CONFIG_HOME: join(home.dir, "xdg") })
  })
  afterAll(async () => {
    await service?.close()
    home?.rm()
  })

  it("init registers and saves url, key, tag and id under $XDG_CONFIG_HOME/aff (file 600, folder 700)", async () => {
    const run = await cli(
      "init",
      "--name",
      "CLI Test Partner",
      "--email",
      "cli@partner.test",
      "--app-url",
      "https://partner.test/app",
      "--description",
      "CLI contract test",
      "--server",
      service.url
    )
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    const stored = JSON.parse(readFileSync(configFile, "utf8"))
    expect(stored).toEqual({
      url: service.url,
      api_key: expect.stringMatching(/^ak_/),
      tag: expect.any(String),
      partner_id: expect.any(Number)
    })
    expect(statSync(configFile).mode & 0o777).toBe(0o600)
    expect(statSync(configDir).mode & 0o777).toBe(0o700)
    tag = stored.tag
    apiKey = stored.api_key
    expect(tag).toMatch(/^cli-test-partner/)
    expect(run.stdout).toMatch(new RegExp(`Tag:\\s+${tag}\\n`))
    expect(run.stdout).toContain(apiKey)
    expect(run.stdout).toMatch(/shown only this once/)
    // the stored key is a working key
    expect((await getJson(`${service.url}/api/v1/partners/me`, { authorization: `Bearer ${apiKey}` })).status).toBe(200)
  })

  it("init refuses to overwrite a saved key (exit 1), and without a terminal missing details are a usage error", async () => {
    const before = readFileSync(configFile, "utf8")
    const noTtyConfig = join(home.dir, "no-tty", "config.json")
    const [refused, noTty, invalid] = await Promise.all([
      cli("init", "--name", "Other", "--email", "o@partner.test", "--app-url", "https://o.test"),
      runCli(["init", "--name", "Half", "--server", service.url], envWithConfig(noTtyConfig)),
      runCli(
        [
          "init",
          "--name",
          "Bad Email",
          "--email",
          "not-an-email",
          "--app-url",
          "https://x.test",
          "--server",
          service.url
        ],
        envWithConfig(join(home.dir, "invalid", "config.json"))
      )
    ])
    expectOneErrorLine(refused, 1, /Already registered as "cli-test-partner.*--force/)
    expect(readFileSync(configFile, "utf8")).toBe(before)

    expectOneErrorLine(noTty, 1, /init needs --email, --app-url when it cannot ask in a terminal/)
    expect(existsSync(noTtyConfig)).toBe(false)

    // the server's validation error (400) names the field: a usage error, and no config is written
    expectOneErrorLine(invalid, 1, /API error 400 \(\w+\): .*email/)
    expect(existsSync(join(home.dir, "invalid", "config.json"))).toBe(false)
  })

  it("init --force registers anew and replaces the config; --json prints the server's answer", async () => {
    const forcedConfig = join(home.dir, "forced", "config.json")
    mkdirSync(join(home.dir, "forced"))
    copyFileSync(configFile, forcedConfig)
    const run = await runCli(
      [
        "init",
        "--force",
        "--name",
        "CLI Test Partner",
        "--email",
        "cli2@partner.test",
        "--app-url",
        "https://partner.test",
        "--json"
      ],
      envWithConfig(forcedConfig)
    )
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    const body = JSON.parse(run.stdout)
    expect(body.partner.tag).toBe(`${tag}-2`) // same name: the server deduplicates the tag
    expect(JSON.parse(readFileSync(forcedConfig, "utf8"))).toEqual({
      url: service.url, // from the replaced config: no --server needed
      api_key: body.api_key,
      tag: body.partner.tag,
      partner_id: body.partner.id
    })
    expect(statSync(forcedConfig).mode & 0o777).toBe(0o600)
  })

  it("init in a terminal asks for name, e-mail, app URL and description, then registers", async () => {
    const xdg = join(home.dir, "interactive-xdg")
    const run = await runCliInTerminal(["init", "--server", service.url], { ...env, XDG_CONFIG_HOME: xdg }, [
      ["Partner name", "Typed Partner"],
      ["Contact e-mail", "typed@partner.test"],
      ["App or site URL", "https://typed.test"],
      ["What you build", "typed in a terminal"]
    ])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/Tag:\s+typed-partner/)
    const stored = JSON.parse(readFileSync(join(xdg, "aff", "config.json"), "utf8"))
    expect(stored).toMatchObject({ url: service.url, tag: "typed-partner", api_key: expect.stringMatching(/^ak_/) })
    expect(statSync(join(xdg, "aff", "config.json")).mode & 0o777).toBe(0o600)
    expect(statSync(join(xdg, "aff")).mode & 0o777).toBe(0o700)
  })

  let trackingUrl: string
  const merchantUrl = `https://www.${MERCHANT}/p/kestrel-earbuds?color=black`

  it("match prints just the tracking URL; --verbose adds programme, network, commission and affiliate URL; --json the body", async () => {
    const run = await cli("match", merchantUrl)
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/t\/\S+\n$/)
    trackingUrl = run.stdout.trim()
    expect(trackingUrl.startsWith(`${service.url}/t/`)).toBe(true)

    const [verbose, json] = await Promise.all([
      cli("match", "--verbose", merchantUrl),
      cli("match", merchantUrl, "--json")
    ])
    expect(verbose.stderr).toBe("")
    expect(verbose.code).toBe(0)
    expect(verbose.stdout).toContain(`Tracking URL:  ${trackingUrl}\n`)
    expect(verbose.stdout).toContain(`Programme:     ${PROGRAMME.name} (${PROGRAMME.id})\n`)
    expect(verbose.stdout).toMatch(/Network:\s+awin\n/)
    expect(verbose.stdout).toMatch(/Commission:\s+CPS \d+(\.\d+)?%\n/) // the rate, from the programme
    expect(verbose.stdout).toMatch(/Affiliate URL:\s+https:\/\/www\.awin1\.com\/cread\.php\?awinmid=7050&/)

    expect(json.code).toBe(0)
    const body = JSON.parse(json.stdout)
    expect(body).toMatchObject({ matched: true, program: { id: PROGRAMME.id, network: "awin" } })
    expect(body.link.tracking_url).toBe(trackingUrl) // same partner + same URL: the same link
  })

  it("match with no programme exits 3 with one line; --json still prints the body", async () => {
    const unknownUrl = "https://unknown-merchant-for-cli.example.org/item/1"
    const [run, asJson] = await Promise.all([cli("match", unknownUrl), cli("match", unknownUrl, "--json")])
    expectOneErrorLine(run, 3, /^aff: Not matched \(no_program\): \S+/)
    expect(asJson.code).toBe(3)
    expect(JSON.parse(asJson.stdout)).toMatchObject({ matched: false, reason: "no_program", link: null })
  })

  it("links lists the partner's links as a table and as raw JSON", async () => {
    const [run, asJson] = await Promise.all([cli("links", "--limit", "10"), cli("links", "--json")])
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    const lines = run.stdout.split("\n")
    expect(lines[0]).toMatch(/^TRACKING URL\s+NAME\s+STATE\s+PROGRAMME\s+NETWORK\s+SOURCE\s+CREATED\s+ORIGINAL URL$/)
    expect(lines[1]).toMatch(/^-+( +-+)+$/)
    expect(lines[2]).toMatch(
      new RegExp(
        `^${trackingUrl}\\s+active\\s+awin:7050\\s+awin\\s+match\\s+\\d{4}-\\d\\d-\\d\\d\\s+https://www\\.${MERCHANT}`
      )
    )
    expect(run.stdout).toMatch(/Showing 1-1 of 1\.\n?$/)

    expect(asJson.code).toBe(0)
    const json = JSON.parse(asJson.stdout)
    expect(json.pagination).toMatchObject({ offset: 0, total: 1, next_offset: null })
    expect(json.data.map((link: { tracking_url?: string }) => link.tracking_url)).toEqual([trackingUrl])
  })

  it("stats shows clicks, unique clicks, conversions, revenue, the per-link table and a per-day bar chart", async () => {
    // one human click on the link, then wait until the batched click writer has stored it
    const click = await fetch(trackingUrl, {
      redirect: "manual",
      headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0" }
    })
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
    expect(run.stdout).toMatch(/Conversions:\s+0\n/)
    expect(run.stdout).toMatch(/Revenue:\s+0(\.0+)?\b.*\(pending 0(\.0+)?, approved 0(\.0+)?\)/)
    const table = run.stdout.slice(run.stdout.indexOf("Per link:"), run.stdout.indexOf("Clicks per day"))
    expect(table.split("\n")[1]).toMatch(
      /^TRACKING ID\s+PROGRAMME\s+CLICKS\s+UNIQUE\s+BOTS\s+CONV\.\s+REVENUE\s+DESTINATION$/
    )
    expect(table).toMatch(new RegExp(`${trackingUrl.split("/t/")[1]}\\s+awin:7050\\s+1\\s+1\\s+0\\s+0\\s+`))

    const json = JSON.parse(asJson.stdout)
    expect(json.partner.tag).toBe(tag)
    expect(json.totals.clicks).toBe(1)
    // the day of the click, whichever UTC day the server counted it on, is the busiest: a full-width bar
    const clickDay = json.days.find((day: { clicks: number }) => day.clicks === 1)?.date
    const chart = run.stdout.slice(run.stdout.indexOf("Clicks per day"))
    expect(chart).toMatch(/^Clicks per day \(a full bar is the busiest day: 1 click\):\n/)
    expect(chart).toMatch(new RegExp(`\\n${clickDay} │${"█".repeat(40)}│ 1 clicks  1 unique  0 conv\\.  \\S+ revenue`))
    // quiet days show an empty bar (at least a week of context), oldest day first
    expect(chart.split("\n").filter((line) => /│ {40}│ 0 clicks/.test(line)).length).toBeGreaterThanOrEqual(6)
    const dates = chart
      .split("\n")
      .slice(1)
      .map((line) => line.slice(0, 10))
      .filter((date) => date.length > 0)
    expect(dates).toEqual([...dates].sort())
  })

  it("search prints prices and tracked links carrying the partner's tag, from the saved key or AFF_API_KEY", async () => {
    const keyOnly = {
      ...envWithConfig(join(home.dir, "none", "config.json")),
      AFF_API_KEY: apiKey,
      AFF_SERVER: service.url
    }
    const anonymous = { ...envWithConfig(join(home.dir, "none", "config.json")), AFF_SERVER: service.url }
    const [run, asJson, viaEnvKey, noKey] = await Promise.all([
      cli("search", "kestrel earbuds", "--limit", "5"),
      cli("search", "kestrel", "--json"),
      runCli(["search", "kestrel earbuds"], keyOnly),
      runCli(["search", "kestrel earbuds"], anonymous)
    ])
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^TITLE\s+PRICE\s+30-DAY LOW\s+STORE\s+STOCK\s+TRACKED LINK$/m)
    const feedLink = (t: string) => `${service.url}/t/f\\.[A-Za-z0-9_-]+\\.${t}`
    expect(run.stdout).toMatch(
      new RegExp(`Kestrel Wireless Earbuds\\s+79\\.99 USD\\s+.*in stock\\s+${feedLink(tag)}\\n`)
    )
    expect(run.stdout).toContain(`Links carry your tag "${tag}".`)

    expect(asJson.code).toBe(0)
    const json = JSON.parse(asJson.stdout)
    expect(json.results.length).toBeGreaterThanOrEqual(2)
    for (const result of json.results) expect(result.links.tracked).toMatch(new RegExp(`^${feedLink(tag)}$`))

    // a key from the environment: its partner's tag is asked of the server
    expect(viaEnvKey.stderr).toBe("")
    expect(viaEnvKey.stdout).toMatch(new RegExp(`Kestrel Wireless Earbuds.*${feedLink(tag)}\\n`))
    // no key: the links earn nobody, and the output says how to fix that
    expect(noKey.code).toBe(0)
    expect(noKey.stdout).not.toContain(`.${tag}\n`)
    expect(noKey.stdout).toContain("Links carry no partner tag (no API key): run `aff init`")
  })

  it("networks (with a validated --status) and programs print tables and raw JSON", async () => {
    const [networks, networksRaw, programs, programsRaw] = await Promise.all([
      cli("networks", "--status", "active", "--q", "awin"),
      cli("networks", "--json"),
      cli("programs", "--domain", `shop.${MERCHANT}`),
      cli("programs", "--network", "awin", "--country", "GB", "--limit", "3", "--json")
    ])
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
    expect(programs.stdout).toMatch(
      new RegExp(`\\n${PROGRAMME.id}\\s+${PROGRAMME.name}\\s+active\\s+\\S+\\s+CPS \\d+(\\.\\d+)?%\\s+${MERCHANT}\\n`)
    )
    const programsJson = JSON.parse(programsRaw.stdout)
    expect(programsJson.data).toHaveLength(3)
    for (const program of programsJson.data) expect(program).toMatchObject({ network_id: "awin", country: "GB" })
  })

  it("--help lists every command and each command's flags", async () => {
    // effect/cli builds every command's help the same way: the root and two commands stand for all
    const commands = ["init", "match", "links", "link", "stats", "export", "search", "networks", "programs", "keys"]
    const sampled = ["init", "match"]
    const [root, ...each] = await Promise.all([cli("--help"), ...sampled.map((command) => cli(command, "--help"))])
    expect(root.code).toBe(0)
    for (const command of commands) expect(root.stdout).toMatch(new RegExp(`\\n\\s+${command}\\s+\\S`))
    each.forEach((run, i) => {
      expect(run.code).toBe(0)
      expect(run.stderr).toBe("")
      expect(run.stdout).toContain(`aff ${sampled[i]} [flags]`)
      expect(run.stdout).toContain("--json")
      expect(run.stdout).toContain("--server, --url")
    })
  })

  it("exit 1: bad flags and arguments (parser or server 400), a malformed --server, a broken config file", async () => {
    const broken = join(home.dir, "broken.json")
    writeFileSync(broken, "{ not json", { mode: 0o600 })
    const runs = await Promise.all([
      cli("match", "javascript:alert(1)"), // the server's 400 names the field
      cli("links", "--bogus"),
      cli("match"),
      cli("nope"),
      cli("networks", "--status", "sleeping"),
      cli("links", "--server", "ftp://127.0.0.1/"),
      runCli(["links"], envWithConfig(broken)),
      runCli(["stats", "--server", service.url], envWithConfig(join(home.dir, "none.json")))
    ])
    const expected = [
      /API error 400 .*url/,
      /Unrecognized flag: --bogus .*\(see `aff links --help`\)/,
      /Missing required argument: url \(see `aff match --help`\)/,
      /Unknown subcommand "nope"/,
      /Invalid value for flag --status: "sleeping". Expected: "active" \| "paused" \| "closed"/,
      /--server: "ftp:\/\/127\.0\.0\.1\/" is not an absolute http\(s\) URL/,
      new RegExp(`The CLI config ${broken} is not valid.*aff init --force`),
      /needs an API key: run `aff init`.*AFF_API_KEY/
    ]
    runs.forEach((run, i) => expectOneErrorLine(run, 1, expected[i]))

    // init --force gets past a config too broken to read (only after the read above: same file)
    const forced = await runCli(
      [
        "init",
        "--force",
        "--name",
        "Broken Config",
        "--email",
        "b@partner.test",
        "--app-url",
        "https://b.test",
        "--server",
        service.url
      ],
      envWithConfig(broken)
    )
    expect(forced.stderr).toBe("")
    expect(forced.code).toBe(0)
    expect(JSON.parse(readFileSync(broken, "utf8"))).toMatchObject({ url: service.url, tag: "broken-config" })
  })

  it("exit 2: an unreachable server (AFF_SERVER, --url alias) and a key the server does not know (401)", async () => {
    const envPort = await freeLoopbackPort()
    const flagPort = await freeLoopbackPort()
    const unreachableEnv = { ...env, AFF_SERVER: `http://127.0.0.1:${envPort}` }
    const [viaEnv, viaFlag, unknownKey] = await Promise.all([
      runCli(["links"], unreachableEnv),
      runCli(["networks", "--url", `http://127.0.0.1:${flagPort}/`], unreachableEnv),
      runCli(["stats", "--json"], { ...env, AFF_API_KEY: `ak_${"x".repeat(43)}` })
    ])
    expectOneErrorLine(
      viaEnv,
      2,
      new RegExp(`not reachable at http://127\\.0\\.0\\.1:${envPort} \\(connection refused\\).*npm start`)
    )
    expectOneErrorLine(
      viaFlag,
      2,
      new RegExp(`not reachable at http://127\\.0\\.0\\.1:${flagPort} \\(connection refused\\)`)
    )
    expectOneErrorLine(unknownKey, 2, /API error 401 .*check the API key: AFF_API_KEY/)
  })

  it("exit 3: a 404 from the server (here: a server URL with a path the API does not have)", async () => {
    const run = await cli("links", "--server", `${service.url}/not-the-api`)
    expectOneErrorLine(run, 3, /API error 404/)
  })
})
