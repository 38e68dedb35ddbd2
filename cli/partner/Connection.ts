import { Effect, Option, Redacted } from "effect"
import { readConfigFile, type StoredConfig } from "./ConfigFile.ts"
import { ConfigError } from "./errors.ts"
import { PartnerEnv } from "./PartnerEnv.ts"

// Which server and which key a command uses. Precedence, highest first:
// the --server flag (alias --url), the AFF_SERVER / AFF_API_KEY environment,
// the config file written by `aff init`, then the local default server.

export const DEFAULT_URL = "http://127.0.0.1:3000"

export interface Connection {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:3000 */
  readonly baseUrl: string
  readonly apiKey: Option.Option<Redacted.Redacted<string>>
  /** The tag of the key's partner when the key came from the config file (an AFF_API_KEY may be another partner's). */
  readonly storedTag: Option.Option<string>
}

/** Accepts only absolute http(s) URLs, so a typo fails here and not as a confusing transport error. */
export const normaliseBaseUrl = (raw: string, source: string) =>
  Effect.try({
    try: () => {
      const url = new URL(raw.trim())
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)")
      return url.toString().replace(/\/+$/, "")
    },
    catch: () =>
      new ConfigError({ message: `${source}: "${raw}" is not an absolute http(s) URL (e.g. ${DEFAULT_URL}).` })
  })

/** The connection for a command, given its --server flag; a broken config file is an error naming it. */
export const resolveConnection = (serverFlag: Option.Option<string>) =>
  Effect.flatMap(readConfigFile, (stored) => resolveConnectionWith(serverFlag, stored))

export const resolveConnectionWith = (serverFlag: Option.Option<string>, stored: Option.Option<StoredConfig>) =>
  Effect.gen(function* () {
    const envUrl = yield* PartnerEnv.server
    const envKey = yield* PartnerEnv.apiKey
    const [rawUrl, source] = Option.isSome(serverFlag)
      ? [serverFlag.value, "--server"]
      : Option.isSome(envUrl)
        ? [envUrl.value, "AFF_SERVER"]
        : Option.isSome(stored)
          ? [stored.value.url, "the CLI config file"]
          : [DEFAULT_URL, "default"]
    const baseUrl = yield* normaliseBaseUrl(rawUrl, source)
    const key = Option.orElse(envKey, () => Option.map(stored, (config) => config.api_key))
    return {
      baseUrl,
      apiKey: Option.map(key, (value) => Redacted.make(value.trim())),
      storedTag: Option.isNone(envKey) ? Option.map(stored, (config) => config.tag) : Option.none()
    } satisfies Connection
  })
