import { Effect, Option } from "effect"
import { Command } from "effect/cli"
import { callApi } from "../ApiClient.ts"
import { configFilePath, readConfigFile, writeConfigFile } from "../ConfigFile.ts"
import { resolveConnection } from "../Connection.ts"
import * as flags from "../flags.ts"
import { CLI_NAME } from "../name.ts"

// `aff keys rotate`: POST /api/v1/partners/me/keys/rotate with the current
// key. The new key is shown by the server once: when the current key came
// from the config file it replaces it there (the file stays the only copy);
// a key from AFF_API_KEY is printed, for the user to put where it came from.

const rotate = Command.make(
  "rotate",
  { server: flags.server, json: flags.json },
  Effect.fn("partner.keys.rotate")(function* ({ json, server }) {
    const connection = yield* resolveConnection(server)
    const { data, raw } = yield* callApi(connection, {
      auth: "required",
      send: (api) => api.partners.rotateKey({ responseMode: "response-only" }),
      answer: (answers) => answers.rotateKey
    })
    const stored = yield* readConfigFile
    const fromFile = Option.isSome(connection.storedTag) && Option.isSome(stored)
    if (fromFile) yield* writeConfigFile({ ...stored.value, api_key: data.api_key })
    const file = yield* configFilePath
    yield* flags.printResult(json, raw, () =>
      [
        `Rotated the API key of ${data.partner.name} (tag ${data.partner.tag}); the previous key no longer works.`,
        fromFile
          ? `The new key replaced the old one in ${file}.`
          : `New key (shown once; put it in AFF_API_KEY): ${data.api_key}`
      ].join("\n")
    )
  })
).pipe(
  Command.withDescription("Replace your API key by a new one (the old one stops working within seconds everywhere)")
)

export const keys = Command.make("keys").pipe(
  Command.withDescription("Your API key"),
  Command.withSubcommands([rotate]),
  Command.withExamples([{ command: `${CLI_NAME} keys rotate`, description: "Rotate the key saved by init" }])
)
