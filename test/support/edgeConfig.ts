import { Option } from "effect"
import type { HttpEdgeConfig } from "../../infra/AppConfig.ts"

/** The HTTP edge settings of a test service (AppConfig.layerWith's), with `overrides`. */
export const edgeConfig = (overrides: Partial<HttpEdgeConfig> = {}): HttpEdgeConfig => ({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnectionsPerIp: 0,
  concurrentRequestsPerIp: 0,
  metricsPort: Option.none(),
  ...overrides
})
