import { afterAll, describe, expect, it } from "vitest"
import { getJson, postJson } from "../support/http.ts"
import { startService, tempDir } from "../support/TestService.ts"
import { revokeCli } from "./revokeCli.ts"

// With no server answering, `npm run partners:revoke` opens $DATA_DIR's DuckDB
// file itself, as the other operator commands do (only one process may open it).
describe("partners:revoke without a server, on the DuckDB file", () => {
  const data = tempDir()
  afterAll(() => data.rm())

  it("revokes in DATA_DIR's store; the next server refuses the key", async () => {
    const first = await startService({ dataDir: data.dir })
    const res = await postJson(`${first.url}/api/v1/partners/register`, { name: "Offline", email: "o@x.example" })
    const key: string = res.body.api_key
    await first.close()
    // PORT 1: nothing answers there, so the command opens the file
    const { stdout } = await revokeCli(["offline", "--json"], { DATA_DIR: data.dir, HOST: "127.0.0.1", PORT: "1" })
    expect(JSON.parse(stdout)).toMatchObject({ partner: { tag: "offline" }, api_key: null })
    const second = await startService({ dataDir: data.dir })
    try {
      const me = await getJson(`${second.url}/api/v1/partners/me`, { authorization: `Bearer ${key}` })
      expect(me.status).toBe(401)
    } finally {
      await second.close()
    }
  })
})
