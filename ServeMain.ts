import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AppConfig } from "./infra/AppConfig.ts"
import { Logging } from "./infra/Logging.ts"
import { addressInUse, portInUseLine } from "./infra/StartupLines.ts"
import { serveUntilStopped, stopIsSuccess } from "./ServeUntilStopped.ts"

// `npm start` (through main.ts): the service on the environment's configuration. runMain turns
// SIGINT/SIGTERM into interruption, so every layer's finalizer runs (click
// queue drained, Meilisearch child stopped, DuckDB closed), between a
// "shutdown started" and a "shutdown finished" log line; then exit code 0.
// The logger and the service share one AppConfig: the same layer value is
// built once (the service's build reuses the logger's memo map), so a
// generated admin token is the same for both.
// A port already taken ends in one line naming it and the variable to change,
// exit code 1 (the layers built so far are released first), not a stack.
// The service's code (service.ts and everything it composes) is imported after
// the first log line (ServeUntilStopped.ts).
serveUntilStopped(() =>
  import("./service.ts").then(({ makeService, Metrics, PipelineRunner }) => ({
    service: makeService(AppConfig.layer),
    Metrics,
    PipelineRunner
  }))
).pipe(
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
