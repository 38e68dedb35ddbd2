// How late the event loop runs, for /metrics: a timer due every SAMPLE_MS
// records how late it fired. Everything this process serves (redirects
// included) waits behind synchronous work on the loop, so the lateness is
// what a request queued behind such work waits at most.
//
// Exposed as cumulative counts per bound (Prometheus-style `le` buckets),
// so whoever scrapes twice gets the exact share of samples over a bound
// between the two scrapes ("p99 under 10 ms" means fewer than 1% over 10 ms),
// and as the largest lateness of the last WINDOWS seconds, so a scraper
// polling once every few seconds misses no stall. Not monitorEventLoopDelay:
// its HDR histogram answers percentiles since its last reset, which neither
// several scrapers nor exact bucket counts can share, and its samples include
// its own resolution.

/** How often the loop is sampled (ms): 100 cheap timer callbacks a second. */
export const SAMPLE_MS = 10
/** Upper bounds of the buckets, in milliseconds. */
export const DELAY_BOUNDS_MS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000] as const
/** One-second windows the recent maximum covers. */
const WINDOWS = 10

/** Where the figures go: the metrics registry (Metrics.ts, which starts the sampler: no import back). */
export interface GaugeRegistry {
  gauge(name: string, help: string, read: () => number, labels?: Record<string, string>): void
}

export interface EventLoopDelaySampler {
  /** Stops the timer. */
  readonly stop: () => void
}

/** Starts sampling into `metrics`; the timer does not keep the process alive. */
export const sampleEventLoopDelay = (metrics: GaugeRegistry, now: () => number = performance.now.bind(performance)) => {
  const counts = new Float64Array(DELAY_BOUNDS_MS.length + 1)
  let samples = 0
  let sumMs = 0
  // Largest lateness per one-second window, newest last.
  const windowMax = new Float64Array(WINDOWS)
  let windowStarted = now()
  let last = windowStarted

  const record = (lateMs: number) => {
    samples++
    sumMs += lateMs
    let bucket = 0
    while (bucket < DELAY_BOUNDS_MS.length && lateMs > DELAY_BOUNDS_MS[bucket]) bucket++
    counts[bucket]++
    if (lateMs > windowMax[WINDOWS - 1]) windowMax[WINDOWS - 1] = lateMs
  }

  const timer = setInterval(() => {
    const at = now()
    record(Math.max(0, at - last - SAMPLE_MS))
    last = at
    while (at - windowStarted >= 1000) {
      windowMax.copyWithin(0, 1)
      windowMax[WINDOWS - 1] = 0
      windowStarted += 1000
    }
  }, SAMPLE_MS)
  timer.unref()

  const bucketHelp = `Event-loop lateness samples (one per ${SAMPLE_MS} ms timer) at or under each bound (s), since start`
  for (const [index, bound] of DELAY_BOUNDS_MS.entries()) {
    const atOrUnder = () => {
      let total = 0
      for (let b = 0; b <= index; b++) total += counts[b]
      return total
    }
    metrics.gauge("eventloop_delay_seconds_bucket", bucketHelp, atOrUnder, { le: String(bound / 1000) })
  }
  metrics.gauge("eventloop_delay_seconds_bucket", bucketHelp, () => samples, { le: "+Inf" })
  metrics.gauge("eventloop_delay_seconds_count", "Event-loop lateness samples since start", () => samples)
  metrics.gauge("eventloop_delay_seconds_sum", "Sum of event-loop lateness since start (s)", () => sumMs / 1000)
  metrics.gauge(
    "eventloop_delay_recent_max_seconds",
    `Largest event-loop lateness of the last ${WINDOWS} seconds`,
    () => Math.max(...windowMax) / 1000
  )
  return { stop: () => clearInterval(timer) } satisfies EventLoopDelaySampler
}
