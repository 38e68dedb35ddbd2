import { NodeRuntime } from "@effect/platform-node"
import { Layer } from "effect"
import { AppConfig } from "./infra/AppConfig.ts"
import { Logging } from "./infra/Logging.ts"
import { makeService } from "./service.ts"

// `npm start`: the service on the environment's configuration. runMain turns
// SIGINT/SIGTERM into interruption, so every layer's finalizer runs (click
// queue drained, Meilisearch child stopped, DuckDB closed).
makeService(AppConfig.layer).pipe(
  Layer.provide(Logging.layer),
  Layer.launch,
  NodeRuntime.runMain
)
