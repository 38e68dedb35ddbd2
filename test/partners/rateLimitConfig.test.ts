import { ConfigProvider, Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { AppConfig } from "../../infra/AppConfig.ts"

// RATE_LIMIT_*_PER_MINUTE / _BURST as the environment gives them.
const load = (env: Record<string, string>) =>
  Effect.runSyncExit(AppConfig.fromEnv.pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)))))

describe("rate-limit configuration", () => {
  it("takes 0 (no refill) and the defaults", () => {
    const exit = load({ RATE_LIMIT_REGISTER_PER_MINUTE: "0", RATE_LIMIT_REGISTER_BURST: "3" })
    expect(Exit.isSuccess(exit)).toBe(true)
    if (!Exit.isSuccess(exit)) return
    expect(exit.value.rateLimitRegister).toEqual({ perMinute: 0, burst: 3 })
    expect(exit.value.rateLimitPerIp).toEqual({ perMinute: 300, burst: 60 })
  })

  it.each(["RATE_LIMIT_KEY_PER_MINUTE", "RATE_LIMIT_IP_BURST", "RATE_LIMIT_REGISTER_PER_MINUTE"])(
    "refuses a negative %s at startup, naming it",
    (name) => {
      const exit = load({ [name]: "-1" })
      expect(Exit.isFailure(exit)).toBe(true)
      expect(String(Exit.isFailure(exit) ? exit.cause : "")).toContain(name)
    }
  )
})
