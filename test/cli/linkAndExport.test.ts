import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getJson } from "../support/http.ts"
import { createPartnerHistory, type PartnerHistory, parseCsv } from "../support/partnerHistory.ts"
import { startService, tempDir, type RunningService } from "../support/TestService.ts"
import { cleanEnv, runCli } from "./partnerCli.ts"

// `aff link name|disable|enable|delete` and `aff export` as a partner runs
// them: a child process over real HTTP, the key in AFF_API_KEY.
describe("aff link and aff export", () => {
  let service: RunningService
  let history: PartnerHistory
  let home: ReturnType<typeof tempDir>
  let env: Record<string, string>
  const cli = (...args: Array<string>) => runCli(args, env)

  beforeAll(async () => {
    service = await startService()
    history = await createPartnerHistory(service, "Cli Partner")
    home = tempDir("aff-link-")
    env = cleanEnv(home.dir, { AFF_SERVER: service.url, AFF_API_KEY: history.key })
  })
  afterAll(async () => {
    await service?.close()
    home?.rm()
  })

  it("names, disables and enables a link; the disabled link answers 410", async () => {
    const id = history.links[0].tracking_id
    const named = await cli("link", "name", id, "Boots post")
    expect(named.code).toBe(0)
    expect(named.stdout).toContain('"Boots post"')
    const disabled = await cli("link", "disable", id)
    expect(disabled.stdout).toContain("disabled")
    expect((await fetch(history.links[0].tracking_url, { redirect: "manual" })).status).toBe(410)
    const enabled = await cli("link", "enable", id, "--json")
    expect(JSON.parse(enabled.stdout)).toMatchObject({ tracking_id: id, name: "Boots post", state: "active" })
    const listed = await cli("links")
    expect(listed.stdout).toContain("Boots post")
  })

  it("deletes a link; an unknown one exits 3 with one line", async () => {
    const deleted = await cli("link", "delete", history.links[2].tracking_id)
    expect(deleted.code).toBe(0)
    expect(deleted.stdout).toContain("410 Gone")
    const unknown = await cli("link", "disable", "NoSuchLink99")
    expect(unknown.code).toBe(3)
    expect(unknown.stderr).toMatch(/^aff: [^\n]+\n$/)
  })

  it("exports the CSV to stdout and to --out, summing to partners/me", async () => {
    const me = (await getJson(`${service.url}/api/v1/partners/me`, { authorization: `Bearer ${history.key}` })).body
    const printed = await cli("export")
    expect(printed.code).toBe(0)
    const file = join(home.dir, "business.csv")
    const written = await cli("export", "--out", file)
    expect(written.code).toBe(0)
    expect(written.stderr).toContain(file)
    for (const text of [printed.stdout.replace(/\n$/, "\r\n"), readFileSync(file, "utf8")]) {
      const [header, ...rows] = parseCsv(text)
      const clicks = rows.filter((row) => row[0] === "clicks")
      expect(clicks.reduce((sum, row) => sum + Number(row[header.indexOf("clicks")]), 0)).toBe(me.totals.clicks)
    }
  })
})
