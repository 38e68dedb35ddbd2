import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgeConfig } from "../../support/edgeConfig.ts"
import { getJson } from "../../support/http.ts"
import { type RunningService, startService } from "../../support/TestService.ts"
import { freeLoopbackPort } from "../../../infra/freeLoopbackPort.ts"

// /metrics is an operator's view (traffic, partners' volumes, failures): it
// answers with the admin token only, or without it on METRICS_PORT, which
// listens on the loopback interface only.

describe("/metrics", () => {
  let service: RunningService
  let metricsPort: number
  beforeAll(async () => {
    metricsPort = await freeLoopbackPort()
    service = await startService({ httpEdge: edgeConfig({ metricsPort: Option.some(metricsPort) }) })
  })
  afterAll(() => service?.close())

  it("answers 401 with the JSON error body without the admin token, or with a wrong one", async () => {
    for (const headers of [{}, { authorization: "Bearer not-the-token" }] as Array<Record<string, string>>) {
      const answer = await getJson(`${service.url}/metrics`, headers)
      expect(answer.status).toBe(401)
      expect(answer.body.error.code).toBe("unauthorized")
      expect(JSON.stringify(answer.body)).not.toContain("redirects_total")
    }
  })

  it("answers the Prometheus text with the admin token", async () => {
    const answer = await fetch(`${service.url}/metrics`, { headers: { authorization: "Bearer test-admin-token" } })
    expect(answer.status).toBe(200)
    expect(await answer.text()).toContain("# TYPE redirects_total counter")
  })

  it("METRICS_PORT serves it without the token on 127.0.0.1 only, and nothing else", async () => {
    const answer = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
    expect(answer.status).toBe(200)
    expect(await answer.text()).toContain("# TYPE redirects_total counter")
    expect((await getJson(`http://127.0.0.1:${metricsPort}/api/deals`)).status).toBe(404)
    // bound to 127.0.0.1, not every interface: another loopback address finds no listener
    await expect(fetch(`http://127.0.0.2:${metricsPort}/metrics`)).rejects.toThrow()
  })
})
