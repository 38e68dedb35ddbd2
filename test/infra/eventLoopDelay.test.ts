import { describe, expect, it } from "vitest"
import { DELAY_BOUNDS_MS, sampleEventLoopDelay } from "../../infra/eventLoopDelay.ts"
import { makeMetrics } from "../../infra/Metrics.ts"

// The event loop's lateness on /metrics: a stall of the loop shows as a
// sample at least as late as the stall (a lower bound that a loaded machine
// only raises), in the buckets and in the recent maximum.

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))
const block = (ms: number) => {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // holds the loop, as synchronous work does
  }
}

describe("event-loop lateness metrics", () => {
  it("count a stall in the buckets over its length and in the recent maximum", async () => {
    const metrics = makeMetrics()
    const sampler = sampleEventLoopDelay(metrics)
    try {
      await sleep(50)
      block(150)
      await sleep(50)
      const bucket = (le: string) => metrics.value("eventloop_delay_seconds_bucket", { le })
      const samples = bucket("+Inf")
      expect(samples).toBeGreaterThanOrEqual(2)
      expect(metrics.value("eventloop_delay_seconds_count")).toBe(samples)
      // at least one sample over 100 ms, and the counts cumulative over the bounds
      expect(samples - bucket("0.1")).toBeGreaterThanOrEqual(1)
      const cumulative = DELAY_BOUNDS_MS.map((bound) => bucket(String(bound / 1000)))
      expect(cumulative).toEqual([...cumulative].sort((a, b) => a - b))
      expect(metrics.value("eventloop_delay_recent_max_seconds")).toBeGreaterThanOrEqual(0.13)
      expect(metrics.render()).toMatch(/^eventloop_delay_seconds_bucket\{le="0\.01"\} \d+$/m)
    } finally {
      sampler.stop()
    }
  })
})
