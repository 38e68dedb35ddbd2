import { Context, Effect, Layer } from "effect"
import { sampleEventLoopDelay } from "./eventLoopDelay.ts"

// A tiny Prometheus-text registry. Hot paths bump plain numbers (no
// allocation, no Effect), and /metrics renders them on demand.
export interface Counter {
  inc(by?: number): void
  readonly value: number
}

export interface MetricsShape {
  counter(name: string, help: string, labels?: Record<string, string>): Counter
  /** A value read at scrape time (queue depth, cache size). */
  gauge(name: string, help: string, read: () => number, labels?: Record<string, string>): void
  /** The current value of a counter or gauge (0 when unknown), for summaries such as the shutdown log line. */
  value(name: string, labels?: Record<string, string>): number
  render(): string
}

const key = (name: string, labels?: Record<string, string>) =>
  labels === undefined || Object.keys(labels).length === 0
    ? name
    : `${name}{${Object.entries(labels)
        .map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, "_")}"`)
        .join(",")}}`

export const makeMetrics = (): MetricsShape => {
  const help = new Map<string, { help: string; type: "counter" | "gauge" }>()
  const counters = new Map<string, { value: number }>()
  const gauges = new Map<string, () => number>()
  return {
    counter(name, text, labels) {
      help.set(name, { help: text, type: "counter" })
      const id = key(name, labels)
      let cell = counters.get(id)
      if (cell === undefined) counters.set(id, (cell = { value: 0 }))
      const c = cell
      return {
        inc: (by = 1) => {
          c.value += by
        },
        get value() {
          return c.value
        }
      }
    },
    gauge(name, text, read, labels) {
      help.set(name, { help: text, type: "gauge" })
      gauges.set(key(name, labels), read)
    },
    value(name, labels) {
      const id = key(name, labels)
      return counters.get(id)?.value ?? gauges.get(id)?.() ?? 0
    },
    render() {
      const lines: Array<string> = []
      for (const [name, meta] of help) {
        lines.push(`# HELP ${name} ${meta.help}`, `# TYPE ${name} ${meta.type}`)
        const source = meta.type === "counter" ? counters : gauges
        for (const [id, cell] of source) {
          if (id !== name && !id.startsWith(`${name}{`)) continue
          const value = typeof cell === "function" ? cell() : cell.value
          lines.push(`${id} ${Number.isFinite(value) ? value : 0}`)
        }
      }
      return lines.join("\n") + "\n"
    }
  }
}

export class Metrics extends Context.Service<Metrics, MetricsShape>()("app/infra/Metrics") {
  /** The registry, with the event loop's lateness sampled into it (eventLoopDelay.ts) while the layer lives. */
  static readonly layer = Layer.effect(
    Metrics,
    Effect.gen(function* () {
      const metrics = makeMetrics()
      // What of the process's memory is this thread's V8 heap and the buffers
      // it holds outside it (the rest of the RSS, by part: MemoryGauges.ts).
      metrics.gauge("nodejs_heap_used_bytes", "V8 heap in use on the main thread", () => process.memoryUsage().heapUsed)
      metrics.gauge(
        "nodejs_heap_committed_bytes",
        "V8 heap the main thread holds from the system (in use or not): its part of the RSS",
        () => process.memoryUsage().heapTotal
      )
      metrics.gauge(
        "nodejs_external_bytes",
        "Memory of buffers and strings V8 holds outside its heap",
        () => process.memoryUsage().external
      )
      yield* Effect.acquireRelease(
        Effect.sync(() => sampleEventLoopDelay(metrics)),
        (sampler) => Effect.sync(sampler.stop)
      )
      return metrics
    })
  )
}
