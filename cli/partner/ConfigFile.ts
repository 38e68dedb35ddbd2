import { Effect, FileSystem, Option, Path, Schema } from "effect"
import { homedir } from "node:os"
import { ConfigError } from "./errors.ts"
import { CLI_NAME } from "./name.ts"
import { PartnerEnv } from "./PartnerEnv.ts"

// Where `aff init` keeps what the server gave us. The API key is shown by
// the server exactly once, so this file is its only copy: it is written
// atomically (temp file + rename) with mode 600 in a folder of mode 700, and
// `init` refuses to overwrite it without --force.

export const StoredConfig = Schema.Struct({
  url: Schema.String,
  api_key: Schema.String,
  tag: Schema.String,
  partner_id: Schema.Number
})
export type StoredConfig = typeof StoredConfig.Type

const decodeStored = Schema.decodeUnknownEffect(Schema.fromJsonString(StoredConfig))

/**
 * `$AFF_CONFIG` (a file), else `$XDG_CONFIG_HOME/aff/config.json`, else
 * `~/.config/aff/config.json`. The XDG spec says to ignore a relative
 * XDG_CONFIG_HOME, so we do.
 */
const configLocation = Effect.gen(function* () {
  const path = yield* Path.Path
  const explicit = yield* PartnerEnv.configFile
  const xdg = Option.filter(yield* PartnerEnv.xdgConfigHome, (dir) => path.isAbsolute(dir))
  return Option.match(explicit, {
    // a file the user named may sit in a shared folder: never change that folder's mode
    onSome: (file) => ({ file: path.resolve(file), ownFolder: false }),
    onNone: () => ({
      file: path.join(
        Option.getOrElse(xdg, () => path.join(homedir(), ".config")),
        CLI_NAME,
        "config.json"
      ),
      ownFolder: true
    })
  })
})

export const configFilePath = Effect.map(configLocation, (location) => location.file)

/** The stored config, or `None` when no file exists yet; a broken file is an error naming it. */
export const readConfigFile = Effect.gen(function* () {
  const fs = yield* FileSystem.FileSystem
  const file = yield* configFilePath
  const exists = yield* fs.exists(file).pipe(Effect.orElseSucceed(() => false))
  if (!exists) return Option.none<StoredConfig>()
  const text = yield* fs
    .readFileString(file)
    .pipe(
      Effect.mapError((error) => new ConfigError({ message: `Cannot read the CLI config ${file}: ${error.message}` }))
    )
  const stored = yield* decodeStored(text).pipe(
    Effect.mapError(
      (error) =>
        new ConfigError({
          message: `The CLI config ${file} is not valid (${error.message}). Fix it, or run \`${CLI_NAME} init --force\` to register again.`
        })
    )
  )
  return Option.some(stored)
})

/** Writes the config with mode 600 (its own folder 700), replacing any previous file atomically. */
export const writeConfigFile = (config: StoredConfig) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const { file, ownFolder } = yield* configLocation
    const temp = `${file}.${process.pid}.tmp`
    yield* fs.makeDirectory(path.dirname(file), { recursive: true, mode: 0o700 })
    // mkdir's mode does not apply to a folder that already existed (an older install, a wider umask)
    if (ownFolder) yield* fs.chmod(path.dirname(file), 0o700)
    yield* fs.writeFileString(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 })
    // mode only applies when the file is created: make sure of it either way
    yield* fs.chmod(temp, 0o600)
    yield* fs.rename(temp, file)
    return file
  }).pipe(Effect.mapError((error) => new ConfigError({ message: `Cannot write the CLI config: ${error.message}` })))
