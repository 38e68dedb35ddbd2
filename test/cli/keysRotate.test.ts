import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getJson, postJson } from "../support/http.ts"
import { startService, tempDir, type RunningService } from "../support/TestService.ts"
import { cleanEnv, runCli } from "./partnerCli.ts"

// `aff keys rotate` as a partner runs it: a child process over real HTTP.
describe("aff keys rotate", () => {
  let service: RunningService
  let home: ReturnType<typeof tempDir>
  const register = async (name: string) => {
    const res = await postJson(`${service.url}/api/v1/partners/register`, { name, email: "cli@x.example" })
    return { key: res.body.api_key as string, id: res.body.partner.id as number, tag: res.body.partner.tag as string }
  }
  const status = async (key: string) =>
    (await getJson(`${service.url}/api/v1/partners/me`, { authorization: `Bearer ${key}` })).status

  beforeAll(async () => {
    service = await startService()
    home = tempDir("aff-keys-")
  })
  afterAll(async () => {
    await service?.close()
    home?.rm()
  })

  it("replaces the key saved by init in the config file; the old key stops working", async () => {
    const partner = await register("Cli Rotator")
    const file = join(home.dir, "config.json")
    writeFileSync(
      file,
      JSON.stringify({ url: service.url, api_key: partner.key, tag: partner.tag, partner_id: partner.id }),
      { mode: 0o600 }
    )
    const run = await runCli(["keys", "rotate"], cleanEnv(home.dir, { AFF_CONFIG: file }))
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.stdout).toContain("the previous key no longer works")
    const saved = JSON.parse(readFileSync(file, "utf8"))
    expect(saved).toMatchObject({ url: service.url, tag: partner.tag, partner_id: partner.id })
    expect(saved.api_key).not.toBe(partner.key)
    expect(run.stdout).not.toContain(saved.api_key) // kept in the file only
    expect(await status(partner.key)).toBe(401)
    expect(await status(saved.api_key)).toBe(200)
  })

  it("prints the new key when the current one came from AFF_API_KEY", async () => {
    const partner = await register("Env Rotator")
    const run = await runCli(
      ["keys", "rotate", "--json"],
      cleanEnv(home.dir, { AFF_API_KEY: partner.key, AFF_SERVER: service.url, AFF_CONFIG: join(home.dir, "none.json") })
    )
    expect(run.code).toBe(0)
    const body = JSON.parse(run.stdout)
    expect(body.partner.tag).toBe(partner.tag)
    expect(await status(body.api_key)).toBe(200)
    expect(await status(partner.key)).toBe(401)
  })
})
