import { Redacted } from "effect"
import { revokeCli } from "./revokeCli.ts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getJson, postJson } from "../support/http.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// Partner keys: rotation by the partner (POST /api/v1/partners/me/keys/rotate)
// and revocation by the operator (POST /admin/partners/{partner}/keys/revoke,
// npm run partners:revoke), over real HTTP.

const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

describe("partner keys: rotation and revocation", () => {
  let service: RunningService
  let admin: Record<string, string>
  const register = async (name: string) => {
    const res = await postJson(`${service.url}/api/v1/partners/register`, { name, email: "k@x.example" })
    return { key: res.body.api_key as string, id: res.body.partner.id as number, tag: res.body.partner.tag as string }
  }
  const me = (key: string) => getJson(`${service.url}/api/v1/partners/me`, bearer(key))
  const rotate = (key: string) => postJson(`${service.url}/api/v1/partners/me/keys/rotate`, {}, bearer(key))
  const revoke = (partner: string, body: unknown = {}, headers = admin) =>
    postJson(`${service.url}/admin/partners/${partner}/keys/revoke`, body, headers)

  beforeAll(async () => {
    service = await startService()
    admin = bearer(Redacted.value(service.config.adminToken))
  })
  afterAll(() => service?.close())

  it("rotation returns a new key once; the old key stops working at once, the new one works", async () => {
    const partner = await register("Rotating Shop")
    expect((await me(partner.key)).status).toBe(200) // the old key is now in this replica's cache
    const rotated = await rotate(partner.key)
    expect(rotated.status).toBe(200)
    expect(rotated.body.partner).toEqual({ id: partner.id, name: "Rotating Shop", tag: partner.tag })
    expect(rotated.body.api_key).toMatch(/^ak_[A-Za-z0-9_-]{43}$/)
    expect(rotated.body.api_key).not.toBe(partner.key)
    const old = await me(partner.key)
    expect(old.status).toBe(401)
    expect(old.body.error.code).toBe("unauthorized")
    const fresh = await me(rotated.body.api_key)
    expect(fresh.status).toBe(200)
    expect(fresh.body.partner.tag).toBe(partner.tag)
    expect((await rotate(partner.key)).status).toBe(401)
  })

  it("two rotations with one key at once: one wins, the other answers 401", async () => {
    const partner = await register("Racing Rotator")
    const answers = await Promise.all([rotate(partner.key), rotate(partner.key), rotate(partner.key)])
    expect(answers.map((res) => res.status).sort()).toEqual([200, 401, 401])
    const winner = answers.find((res) => res.status === 200)!.body.api_key
    expect((await me(winner)).status).toBe(200)
  })

  it("rotation needs a valid key", async () => {
    expect((await postJson(`${service.url}/api/v1/partners/me/keys/rotate`, {})).status).toBe(401)
    expect((await rotate(`ak_${"Z".repeat(43)}`)).status).toBe(401)
  })

  it("the operator revokes a key by id or tag: it stops working; --reissue hands out a new one", async () => {
    const byId = await register("Leaky Partner")
    expect((await me(byId.key)).status).toBe(200)
    const revoked = await revoke(String(byId.id))
    expect(revoked.status).toBe(200)
    expect(revoked.body).toEqual({
      partner: { id: byId.id, name: "Leaky Partner", tag: byId.tag },
      revoked: true,
      api_key: null
    })
    expect((await me(byId.key)).status).toBe(401)
    expect((await rotate(byId.key)).status).toBe(401) // a revoked key cannot rotate itself back

    const reissued = await revoke(byId.tag, { reissue: true })
    expect(reissued.status).toBe(200)
    expect(reissued.body.api_key).toMatch(/^ak_[A-Za-z0-9_-]{43}$/)
    expect((await me(reissued.body.api_key)).status).toBe(200)
    expect((await me(byId.key)).status).toBe(401)
  })

  it("revocation is the operator's: admin token required, unknown partner 404, malformed partner 400", async () => {
    const partner = await register("Guarded")
    expect((await revoke(String(partner.id), {}, {})).status).toBe(401)
    expect((await revoke(String(partner.id), {}, bearer(partner.key))).status).toBe(401)
    const unknown = await revoke("no-such-partner")
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe("partner_not_found")
    // digits no 32-bit partner id can hold name a tag, not a store error
    const beyondIds = await revoke("99999999999999999999", { reissue: true })
    expect(beyondIds.status).toBe(404)
    expect(beyondIds.body.error.code).toBe("partner_not_found")
    const malformed = await revoke("Bad%20Tag!")
    expect(malformed.status).toBe(400)
    expect(JSON.stringify(malformed.body.error)).toContain("partner")
    expect((await revoke(String(partner.id), { reissue: "yes" })).status).toBe(400)
    expect((await me(partner.key)).status).toBe(200)
  })

  it("the OpenAPI documents rotation, revocation, and GET /api/v1/links as needing a key", async () => {
    const spec = (await getJson(`${service.url}/openapi.json`)).body
    const rotation = spec.paths["/api/v1/partners/me/keys/rotate"].post
    expect(rotation.description).toContain("stops working")
    expect(Object.keys(rotation.responses)).toEqual(expect.arrayContaining(["200", "401"]))
    const revocation = spec.paths["/admin/partners/{partner}/keys/revoke"].post
    expect(revocation.description).toContain("Revokes")
    expect(Object.keys(revocation.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "404"]))
    const links = spec.paths["/api/v1/links"].get
    expect(links.description).toContain("anonymously are not listed")
    expect(Object.keys(links.responses)).toContain("401")
  })

  it("npm run partners:revoke talks to the running server with the admin token", async () => {
    const partner = await register("Cli Revoked")
    expect((await me(partner.key)).status).toBe(200)
    const { stdout } = await revokeCli([partner.tag, "--server", service.url, "--json"], {
      ADMIN_TOKEN: Redacted.value(service.config.adminToken)
    })
    expect(JSON.parse(stdout)).toMatchObject({ partner: { id: partner.id, tag: partner.tag }, api_key: null })
    expect((await me(partner.key)).status).toBe(401)
  })
})
