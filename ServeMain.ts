import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Layer } from "effect"
import { AppConfig } from "./infra/AppConfig.ts"
import { Logging } from "./infra/Logging.ts"
import { addressInUse, portInUseLine } from "./infra/StartupLines.ts"
import { serveUntilStopped, stopIsSuccess } from "./ServeUntilStopped.ts"
import { makeService } from "./service.ts"

// `npm start` (through main.ts): the service on the environment's configuration. runMain turns
// SIGINT/SIGTERM into interruption, so every layer's finalizer runs (click
// queue drained, Meilisearch child stopped, DuckDB closed), between a
// "shutdown started" and a "shutdown finished" log line; then exit code 0.
// The logger and the service share one AppConfig: the same layer value is
// built once (the service's build reuses the logger's memo map), so a
// generated admin token is the same for both.
// A port already taken ends in one line naming it and the variable to change,
// exit code 1 (the layers built so far are released first), not a stack.
serveUntilStopped(makeService(AppConfig.layer)).pipe(
  Effect.catchIf(
    (error) => addressInUse(error) !== undefined,
    (error) =>
      Effect.gen(function* () {
        const config = yield* AppConfig
        const taken = addressInUse(error)?.port
        yield* Console.error(
          taken === undefined || taken === config.port
            ? portInUseLine(config)
            : `port ${String(taken)} is in use: set METRICS_PORT to a free port`
        )
        process.exitCode = 1
      })
  ),
  Effect.provide(Logging.layer.pipe(Layer.provideMerge(AppConfig.layer))),
  NodeRuntime.runMain({ teardown: stopIsSuccess })
)
