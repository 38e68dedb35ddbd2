import { Config, Effect, Option } from "effect"

// Everything the partner CLI (`aff`) reads from its environment, in one
// place. Read through Effect's Config, so a test can hand it a ConfigProvider
// instead of the process environment.

/** An environment variable; set-but-empty counts as unset (`AFF_SERVER= aff links`). */
const envVar = (name: string) =>
  Config.option(Config.String(name)).pipe(Effect.map(Option.filter((value) => value.trim().length > 0)), Effect.orDie)

export const PartnerEnv = {
  /** AFF_SERVER: the server, below --server and above the config file. */
  server: envVar("AFF_SERVER"),
  /** AFF_API_KEY: the key, above the config file's. */
  apiKey: envVar("AFF_API_KEY"),
  /** AFF_CONFIG: the config file itself. */
  configFile: envVar("AFF_CONFIG"),
  /** XDG_CONFIG_HOME: the folder of the default config file. */
  xdgConfigHome: envVar("XDG_CONFIG_HOME"),
  /** AFF_DEBUG: any value (even empty) prints a defect's details; an unreadable one counts as unset. */
  debug: Config.option(Config.String("AFF_DEBUG")).pipe(Effect.orElseSucceed(() => Option.none<string>()))
}
