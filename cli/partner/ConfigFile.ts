import { Config, Effect, FileSystem, Option, Path, Schema } from "effect"
import { homedir } from "node:os"
import { ConfigError } from "./errors.ts"

// Where `partner init` keeps what the server gave us. The API key is shown by
// the server exactly once, so this file is its only copy: it is written
// atomically (temp file + rename) with mode 600, and `init` refuses to
// overwrite it without --force.

export const StoredConfig = Schema.Struct({
  url: Schema.String,
  api_key: Schema.String,
  tag: Schema.String,
  partner_id: Schema.Number
})
export type StoredConfig = typeof StoredConfig.Type

const decodeStored = Schema.decodeUnknownEffect(Schema.fromJsonString(StoredConfig))

/** `$AFFILIATE_CLI_CONFIG`, else `~/.config/affiliate-cli/config.json`. */
export const configFilePath = Effect.gen(function*() {
  const path = yield* Path.Path
  const explicit = yield* Config.option(Config.String("AFFILIATE_CLI_CONFIG"))
  return Option.match(explicit, {
    onSome: (file) => path.resolve(file),
    onNone: () => path.join(homedir(), ".config", "affiliate-cli", "config.json")
  })
}).pipe(Effect.orDie)

/** The stored config, or `None` when no file exists yet; a broken file is an error naming it. */
export const readConfigFile = Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  const file = yield* configFilePath
  const exists = yield* fs.exists(file).pipe(Effect.orElseSucceed(() => false))
  if (!exists) return Option.none<StoredConfig>()
  const text = yield* fs.readFileString(file).pipe(
    Effect.mapError((error) => new ConfigError({ message: `Cannot read the CLI config ${file}: ${error.message}` }))
  )
  const stored = yield* decodeStored(text).pipe(
    Effect.mapError((error) =>
      new ConfigError({
        message: `The CLI config ${file} is not valid (${error.message}). Fix it, or run \`partner init --force\` to register again.`
      })
    )
  )
  return Option.some(stored)
})

/** Writes the config with mode 600 (folder 700), replacing any previous file atomically. */
export const writeConfigFile = (config: StoredConfig) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const file = yield* configFilePath
    const temp = `${file}.${process.pid}.tmp`
    yield* fs.makeDirectory(path.dirname(file), { recursive: true, mode: 0o700 })
    yield* fs.writeFileString(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 })
    // mode only applies when the file is created: make sure of it either way
    yield* fs.chmod(temp, 0o600)
    yield* fs.rename(temp, file)
    return file
  }).pipe(
    Effect.mapError((error) => new ConfigError({ message: `Cannot write the CLI config: ${error.message}` }))
  )
