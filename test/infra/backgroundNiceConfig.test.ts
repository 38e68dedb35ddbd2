import { ConfigProvider, Effect, Exit } from "effect"
import { expect, it } from "vitest"
import { AppConfig } from "../../infra/AppConfig.ts"

// BACKGROUND_NICE as the environment gives it: the nice value of background
// threads (test/infra/backgroundPriority.test.ts shows it applied).
const load = (env: Record<string, string>) =>
  Effect.runSyncExit(AppConfig.fromEnv.pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)))))

it("defaults to 10; 0 turns it off; 19 is the largest", () => {
  for (const [env, nice] of [
    [{}, 10],
    [{ BACKGROUND_NICE: "0" }, 0],
    [{ BACKGROUND_NICE: "19" }, 19]
  ] as const) {
    const exit = load(env)
    expect(Exit.isSuccess(exit) && exit.value.backgroundNice, JSON.stringify(env)).toBe(nice)
  }
})

it.each(["-1", "20", "5.5", "low"])("refuses BACKGROUND_NICE=%s at start, naming the variable", (value) => {
  const exit = load({ BACKGROUND_NICE: value })
  expect(Exit.isFailure(exit)).toBe(true)
  expect(String(Exit.isFailure(exit) ? exit.cause : "")).toContain("BACKGROUND_NICE")
})
