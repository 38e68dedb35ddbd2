import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { AppConfig } from "./infra/AppConfig.ts"
import { Logging } from "./infra/Logging.ts"
import { serveUntilStopped, stopIsSuccess } from "./ServeUntilStopped.ts"
import { makeService } from "./service.ts"

// `npm start` (through main.ts): the service on the environment's configuration. runMain turns
// SIGINT/SIGTERM into interruption, so every layer's finalizer runs (click
// queue drained, Meilisearch child stopped, DuckDB closed), between a
// "shutdown started" and a "shutdown finished" log line; then exit code 0.
// The logger and the service share one AppConfig: the same layer value is
// built once (the service's build reuses the logger's memo map), so a
// generated admin token is the same for both.
serveUntilStopped(makeService(AppConfig.layer)).pipe(
  Effect.provide(Logging.layer.pipe(Layer.provide(AppConfig.layer))),
  NodeRuntime.runMain({ teardown: stopIsSuccess })
)
