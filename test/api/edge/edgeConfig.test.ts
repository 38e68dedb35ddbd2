import { ConfigProvider, Effect, Exit, Option } from "effect"
import { describe, expect, it } from "vitest"
import { AppConfig } from "../../../infra/AppConfig.ts"

// TRUST_PROXY and the HTTP edge's variables as the environment gives them.
const load = (env: Record<string, string>) =>
  Effect.runSyncExit(AppConfig.fromEnv.pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)))))

const loaded = (env: Record<string, string>) => {
  const exit = load(env)
  if (!Exit.isSuccess(exit)) throw new Error(String(exit.cause))
  return exit.value
}

describe("HTTP edge configuration", () => {
  it("defaults: no trusted proxy, 10 s headers, 30 s request, 5 s keep-alive, 256 connections and 8 reads in flight per IP", () => {
    const config = loaded({})
    expect(config.trustProxy).toBe(0)
    expect(config.httpEdge).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnectionsPerIp: 256,
      concurrentRequestsPerIp: 8,
      metricsPort: Option.none()
    })
  })

  it.each([
    ["true", 1],
    ["false", 0],
    ["0", 0],
    ["2", 2]
  ])("TRUST_PROXY=%s trusts %i proxy hops", (value, hops) => {
    expect(loaded({ TRUST_PROXY: value }).trustProxy).toBe(hops)
  })

  it("with TRUST_PROXY set the per-address connection cap is off unless MAX_CONNECTIONS_PER_IP says otherwise", () => {
    expect(loaded({ TRUST_PROXY: "1" }).httpEdge.maxConnectionsPerIp).toBe(0)
    expect(loaded({ TRUST_PROXY: "1", MAX_CONNECTIONS_PER_IP: "5000" }).httpEdge.maxConnectionsPerIp).toBe(5000)
  })

  it("METRICS_PORT opens the loopback metrics port", () => {
    expect(loaded({ METRICS_PORT: "9464" }).httpEdge.metricsPort).toEqual(Option.some(9464))
  })

  it.each([
    ["TRUST_PROXY", "yes"],
    ["TRUST_PROXY", "-1"],
    ["HTTP_HEADERS_TIMEOUT_MS", "60000"],
    ["HTTP_REQUEST_TIMEOUT_MS", "300000"],
    ["MAX_CONNECTIONS_PER_IP", "-5"],
    ["CONCURRENT_REQUESTS_PER_IP", "many"]
  ])("refuses %s=%s at start-up, naming it", (name, value) => {
    const exit = load({ [name]: value })
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(Exit.isFailure(exit) ? exit.cause : "")).toContain(name)
  })
})
