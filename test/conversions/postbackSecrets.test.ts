import { afterAll, describe, expect, inject, it } from "vitest"
import { sign } from "../../conversions/PostbackSignature.ts"
import { postJson } from "../support/http.ts"
import { startServerProcess } from "../support/serverProcess.ts"
import { tempDir } from "../support/TestService.ts"

// POSTBACK_SECRETS as `npm start` reads it from the environment: no secret is
// built in (unset: postbacks are off, said once at start-up and by a 403),
// and a weak secret stops the start-up naming the variable and the network.
const data = tempDir("postback-secrets-")
afterAll(() => data.rm())

const env = (name: string, extra: Record<string, string> = {}) => ({
  DATA_DIR: `${data.dir}/${name}`,
  MEILI_URL: inject("meiliUrl"),
  MEILI_MASTER_KEY: inject("meiliKey"),
  MEILI_INDEX_PREFIX: `pbs_${name}_`,
  ...extra
})

const startFailure = async (secrets: string) => {
  const started = await startServerProcess(env("weak", { POSTBACK_SECRETS: secrets })).then(
    async (server) => {
      server.child.kill("SIGTERM")
      await server.exited
      return undefined
    },
    (error: Error) => error.message
  )
  expect(started, "the server started with a weak secret").toBeDefined()
  return started!
}

describe("POSTBACK_SECRETS", () => {
  it("unset: the server starts, logs once that postbacks are off, and refuses them with 403", async () => {
    const server = await startServerProcess(env("off"))
    try {
      const text = JSON.stringify({ transaction_id: "T1" })
      const timestamp = String(Math.floor(Date.now() / 1000))
      // Signed with the secret the README used to publish: nothing accepts it now.
      const answer = await postJson(`${server.url}/api/v1/conversions/postback`, text, {
        "x-network": "dev",
        "x-timestamp": timestamp,
        "x-signature": sign("dev-postback-secret", timestamp, text)
      })
      expect(answer.status).toBe(403)
      expect(answer.body.error).toMatchObject({ code: "postbacks_disabled", details: { variable: "POSTBACK_SECRETS" } })
      expect(server.output().match(/postbacks are off: POSTBACK_SECRETS is not set/g)).toHaveLength(1)
    } finally {
      server.child.kill("SIGTERM")
      await server.exited
    }
  })

  it("a short or empty secret stops the start-up, naming the variable and the network", async () => {
    expect(await startFailure(JSON.stringify({ awin: "x".repeat(64), impact: "short" }))).toMatch(
      /POSTBACK_SECRETS network \\?"impact\\?": a secret of 5 bytes is too short: use at least 32/
    )
    expect(await startFailure(JSON.stringify({ cj: "" }))).toMatch(
      /POSTBACK_SECRETS network \\?"cj\\?": a secret of 0 bytes is too short/
    )
    // The second secret of a rotation is checked as well.
    expect(await startFailure(JSON.stringify({ awin: ["x".repeat(32), "y".repeat(31)] }))).toMatch(
      /POSTBACK_SECRETS network \\?"awin\\?": a secret of 31 bytes/
    )
    expect(await startFailure('{"awin":')).toMatch(/POSTBACK_SECRETS: not JSON/)
  })
})
