import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as References from "effect/References"
import { AppConfig } from "./AppConfig.ts"

const levels = ["All", "Trace", "Debug", "Info", "Warn", "Error", "Fatal", "None"] as const
type Level = (typeof levels)[number]

const parseLevel = (raw: string): Level =>
  levels.find((level) => level.toLowerCase() === raw.trim().toLowerCase()) ?? "Info"

/**
 * One JSON object per line on stdout (AppConfig.logLevel, LOG_LEVEL, sets the minimum level).
 * Hot routes never log per request; pipelines and lifecycle events do.
 */
export class Logging {
  static readonly layer = Layer.unwrap(
    Effect.gen(function* () {
      const level = parseLevel((yield* AppConfig).logLevel)
      return Layer.mergeAll(Logger.layer([Logger.consoleJson]), Layer.succeed(References.MinimumLogLevel, level))
    })
  )
}
