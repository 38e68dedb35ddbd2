import { Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { KEY_CACHE_TTL_MS } from "../../partners/KeyCache.ts"
import { getJson, postJson } from "../support/http.ts"
import { startService, tempDir, type RunningService } from "../support/TestService.ts"
import { revokeCli } from "./revokeCli.ts"

// Two replicas (two whole services) on one PostgreSQL: a key rotated or
// revoked through one stops working on the other within KEY_CACHE_TTL_MS,
// however recently that one authenticated it (each trusts a key that long).
describe(`partner keys across two replicas: rotated or revoked, refused everywhere within ${KEY_CACHE_TTL_MS} ms`, () => {
  let a: RunningService
  let b: RunningService
  const LIMIT_MS = KEY_CACHE_TTL_MS + 2_000

  const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
  const me = (service: RunningService, key: string) =>
    getJson(`${service.url}/api/v1/partners/me`, bearer(key)).then((res) => res.status)
  const register = async (name: string) =>
    (await postJson(`${a.url}/api/v1/partners/register`, { name, email: "r@x.example" })).body as {
      api_key: string
      partner: { id: number; tag: string }
    }
  /** Polls until `check` holds; the milliseconds it took (throws past LIMIT_MS). */
  const within = async (check: () => Promise<boolean>) => {
    const started = performance.now()
    while (!(await check())) {
      if (performance.now() - started > LIMIT_MS) throw new Error(`not within ${LIMIT_MS} ms`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return performance.now() - started
  }

  beforeAll(async () => {
    a = await startService()
    b = await startService({ databaseUrl: a.config.databaseUrl, adminToken: a.config.adminToken })
  })
  afterAll(async () => {
    await b?.close()
    await a?.close()
  })

  it("a key rotated on A stops working on B, which had just authenticated it; the new key works on both", async () => {
    const partner = await register("Two Replica Rotator")
    expect(await me(b, partner.api_key)).toBe(200) // B trusts it now
    const rotated = await postJson(`${a.url}/api/v1/partners/me/keys/rotate`, {}, bearer(partner.api_key))
    expect(rotated.status).toBe(200)
    expect(await me(a, partner.api_key)).toBe(401) // at once where it was rotated
    const took = await within(async () => (await me(b, partner.api_key)) === 401)
    expect(took).toBeLessThanOrEqual(LIMIT_MS)
    expect(await me(b, rotated.body.api_key)).toBe(200)
    expect(await me(a, rotated.body.api_key)).toBe(200)
  })

  it("a key the operator revokes through A stops working on B", async () => {
    const partner = await register("Two Replica Revoked")
    expect(await me(b, partner.api_key)).toBe(200)
    const revoked = await postJson(
      `${a.url}/admin/partners/${partner.partner.id}/keys/revoke`,
      {},
      bearer(Redacted.value(a.config.adminToken))
    )
    expect(revoked.status).toBe(200)
    await within(async () => (await me(b, partner.api_key)) === 401)
    expect(await me(a, partner.api_key)).toBe(401)
  })

  it("partners:revoke with no server answering writes PostgreSQL; both replicas refuse the key", async () => {
    const partner = await register("Store Revoked")
    expect(await me(a, partner.api_key)).toBe(200)
    expect(await me(b, partner.api_key)).toBe(200)
    const elsewhere = tempDir()
    try {
      const { stdout } = await revokeCli([partner.partner.tag], {
        DATABASE_URL: Redacted.value(Option.getOrThrow(a.config.databaseUrl)),
        HOST: "127.0.0.1",
        PORT: "1", // nothing answers there: the command goes to the store
        DATA_DIR: elsewhere.dir
      })
      expect(stdout).toContain(`Revoked the API key of partner ${partner.partner.id}`)
    } finally {
      elsewhere.rm()
    }
    await within(async () => (await me(a, partner.api_key)) === 401 && (await me(b, partner.api_key)) === 401)
  })
})
