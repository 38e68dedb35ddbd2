import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { callApi } from "../ApiClient.ts"
import { configFilePath, readConfigFile, writeConfigFile } from "../ConfigFile.ts"
import { resolveConnectionWith } from "../Connection.ts"
import { ConfigError } from "../errors.ts"
import * as flags from "../flags.ts"
import { RegisterResponse } from "../responses.ts"
import { formatFields } from "../Table.ts"

// Registers a partner and keeps the key. The server shows the key once and
// stores only its hash, so the config file is the key's only copy: refuse to
// overwrite an existing one unless --force says the old key may be lost.

export const init = Command.make(
  "init",
  {
    name: Flag.String("name").pipe(Flag.withDescription("Partner (company or app) name; the tag is derived from it")),
    email: Flag.String("email").pipe(Flag.withDescription("Contact e-mail")),
    appUrl: Flag.String("app-url").pipe(Flag.withDescription("Your app or site, an http(s) URL")),
    description: Flag.String("description").pipe(Flag.withDescription("What you build with the API"), Flag.optional),
    force: Flag.Boolean("force").pipe(
      Flag.withDescription("Replace an existing CLI config (its API key is lost unless you saved it)"),
      Flag.withDefault(false)
    ),
    url: flags.url,
    json: flags.json
  },
  Effect.fn("partner.init")(function*({ appUrl, description, email, force, json, name, url }) {
    // --force must also get past a config file too broken to read
    const existing = force ? yield* readConfigFile.pipe(Effect.orElseSucceed(() => Option.none())) : yield* readConfigFile
    const file = yield* configFilePath
    if (Option.isSome(existing) && !force) {
      return yield* new ConfigError({
        message: `Already registered as "${existing.value.tag}" (config ${file}). ` +
          "Use --force to register a new partner and replace that config."
      })
    }
    const connection = yield* resolveConnectionWith(url, existing)
    const { data, raw } = yield* callApi(connection, {
      method: "POST",
      path: "/api/v1/partners/register",
      auth: "none",
      body: {
        name,
        email,
        app_url: appUrl,
        ...(Option.isSome(description) ? { description: description.value } : {})
      }
    }, RegisterResponse)
    yield* writeConfigFile({
      url: connection.baseUrl,
      api_key: data.api_key,
      tag: data.partner.tag,
      partner_id: data.partner.id
    })
    if (json) return yield* Console.log(JSON.stringify(raw, null, 2))
    yield* Console.log(formatFields([
      ["Registered", `${data.partner.name} (partner id ${data.partner.id})`],
      ["Tag", data.partner.tag],
      ["API key", data.api_key],
      ["Saved to", `${file} (mode 600)`]
    ]))
    yield* Console.log(
      `\nWarning: the API key is shown only this once and the server keeps no copy. ` +
        `It is saved in ${file}; keep that file private and back it up.`
    )
  })
).pipe(
  Command.withDescription("Register as a partner and save the API key in the CLI config"),
  Command.withExamples([{
    command: "partner init --name \"Acme Deals\" --email dev@acme.test --app-url https://acme.test",
    description: "Register against the local server"
  }])
)
