import { Config, Effect, Option, Redacted } from "effect"
import { readConfigFile, type StoredConfig } from "./ConfigFile.ts"
import { ConfigError } from "./errors.ts"

// Which server and which key a command uses. Precedence, highest first:
// the --url flag, the AFFILIATE_API_URL / AFFILIATE_API_KEY environment, the
// config file written by `partner init`, then the local default server.

export const DEFAULT_URL = "http://127.0.0.1:3000"

export interface Connection {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:3000 */
  readonly baseUrl: string
  readonly apiKey: Option.Option<Redacted.Redacted<string>>
}

/** Accepts only absolute http(s) URLs, so a typo fails here and not as a confusing transport error. */
export const normaliseBaseUrl = (raw: string, source: string) =>
  Effect.try({
    try: () => {
      const url = new URL(raw.trim())
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)")
      return url.toString().replace(/\/+$/, "")
    },
    catch: () => new ConfigError({ message: `${source}: "${raw}" is not an absolute http(s) URL (e.g. ${DEFAULT_URL}).` })
  })

/** The connection for a command, given its --url flag; a broken config file is an error naming it. */
export const resolveConnection = (urlFlag: Option.Option<string>) =>
  Effect.flatMap(readConfigFile, (stored) => resolveConnectionWith(urlFlag, stored))

export const resolveConnectionWith = (urlFlag: Option.Option<string>, stored: Option.Option<StoredConfig>) =>
  Effect.gen(function*() {
    const envUrl = yield* Config.option(Config.String("AFFILIATE_API_URL")).pipe(Effect.orDie)
    const envKey = yield* Config.option(Config.String("AFFILIATE_API_KEY")).pipe(Effect.orDie)
    const [rawUrl, source] = Option.isSome(urlFlag) ? [urlFlag.value, "--url"] :
      Option.isSome(envUrl) ? [envUrl.value, "AFFILIATE_API_URL"] :
      Option.isSome(stored) ? [stored.value.url, "the CLI config file"] :
      [DEFAULT_URL, "default"]
    const baseUrl = yield* normaliseBaseUrl(rawUrl, source)
    const key = Option.orElse(
      Option.filter(envKey, (value) => value.trim().length > 0),
      () => Option.map(stored, (config) => config.api_key)
    )
    return { baseUrl, apiKey: Option.map(key, (value) => Redacted.make(value.trim())) } satisfies Connection
  })
