import { Console, Effect, Option } from "effect"
import { Command, Flag, Prompt } from "effect/cli"
import { callApi } from "../ApiClient.ts"
import { configFilePath, readConfigFile, writeConfigFile } from "../ConfigFile.ts"
import { resolveConnectionWith } from "../Connection.ts"
import { ConfigError, UsageError } from "../errors.ts"
import * as flags from "../flags.ts"
import { CLI_NAME } from "../name.ts"
import { formatFields } from "../Table.ts"

// Registers a partner and keeps the key. The server shows the key once and
// stores only its hash, so the config file is the key's only copy: refuse to
// overwrite an existing one unless --force says the old key may be lost.
// Missing details are asked for in a terminal; a script (no TTY) must pass
// them as flags, since a prompt there would hang or read garbage.

const optionalText = (name: string, description: string) =>
  Flag.String(name).pipe(Flag.withDescription(description), Flag.optional)

/** Light checks so a typo is re-asked at once; the server's validation stays the authority. */
const required = (label: string) => (value: string) =>
  value.trim().length > 0 ? Effect.succeed(value.trim()) : Effect.fail(`${label} is required`)
const looksLikeEmail = (value: string) =>
  /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim())
    ? Effect.succeed(value.trim())
    : Effect.fail("enter an e-mail address")
const looksLikeHttpUrl = (value: string) => {
  try {
    const url = new URL(value.trim())
    if (url.protocol === "http:" || url.protocol === "https:") return Effect.succeed(value.trim())
  } catch {
    /* falls through to the message */
  }
  return Effect.fail("enter an absolute http(s) URL, e.g. https://example.com")
}

const ask = (flag: Option.Option<string>, prompt: Prompt.Prompt<string>) =>
  Option.match(flag, { onSome: Effect.succeed, onNone: () => Prompt.run(prompt) })

export const init = Command.make(
  "init",
  {
    name: optionalText("name", "Partner (company or app) name; the tag is derived from it (asked for in a terminal)"),
    email: optionalText("email", "Contact e-mail (asked for in a terminal)"),
    appUrl: optionalText("app-url", "Your app or site, an http(s) URL (asked for in a terminal)"),
    description: optionalText("description", "What you build with the API (optional; asked for in a terminal)"),
    force: Flag.Boolean("force").pipe(
      Flag.withDescription("Replace an existing CLI config (its API key is lost unless you saved it)"),
      Flag.withDefault(false)
    ),
    server: flags.server,
    json: flags.json
  },
  Effect.fn("partner.init")(function* ({ appUrl, description, email, force, json, name, server }) {
    // --force must also get past a config file too broken to read
    const existing = force
      ? yield* readConfigFile.pipe(Effect.orElseSucceed(() => Option.none()))
      : yield* readConfigFile
    const file = yield* configFilePath
    if (Option.isSome(existing) && !force) {
      return yield* new ConfigError({
        message:
          `Already registered as "${existing.value.tag}" (config ${file}). ` +
          "Use --force to register a new partner and replace that config."
      })
    }
    const connection = yield* resolveConnectionWith(server, existing)

    const missing = Object.entries({ "--name": name, "--email": email, "--app-url": appUrl })
      .filter(([, value]) => Option.isNone(value))
      .map(([flag]) => flag)
    const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true
    if (missing.length > 0 && !interactive) {
      return yield* new UsageError({
        message:
          `init needs ${missing.join(", ")} when it cannot ask in a terminal ` +
          `(e.g. ${CLI_NAME} init --name "Acme Deals" --email dev@acme.test --app-url https://acme.test)`
      })
    }
    const partnerName = yield* ask(name, Prompt.String({ message: "Partner name", validate: required("a name") }))
    const contactEmail = yield* ask(email, Prompt.String({ message: "Contact e-mail", validate: looksLikeEmail }))
    const appUrlValue = yield* ask(appUrl, Prompt.String({ message: "App or site URL", validate: looksLikeHttpUrl }))
    // asked for only in an interactive run: a fully flagged run never stops to ask
    const about = Option.isSome(description)
      ? description.value.trim()
      : missing.length > 0
        ? (yield* Prompt.run(Prompt.String({ message: "What you build with the API (optional)" }))).trim()
        : ""

    const { data, raw } = yield* callApi(connection, {
      auth: "none",
      send: (api) =>
        api.partners.register({
          payload: {
            name: partnerName,
            email: contactEmail,
            app_url: appUrlValue,
            ...(about.length > 0 ? { description: about } : {})
          },
          responseMode: "response-only"
        }),
      answer: (answers) => answers.register
    })
    yield* writeConfigFile({
      url: connection.baseUrl,
      api_key: data.api_key,
      tag: data.partner.tag,
      partner_id: data.partner.id
    })
    if (json) return yield* Console.log(JSON.stringify(raw, null, 2))
    yield* Console.log(
      formatFields([
        ["Registered", `${data.partner.name} (partner id ${data.partner.id})`],
        ["Tag", data.partner.tag],
        ["API key", data.api_key],
        ["Server", connection.baseUrl],
        ["Saved to", `${file} (mode 600)`]
      ])
    )
    yield* Console.log(
      `\nWarning: the API key is shown only this once and the server keeps no copy. ` +
        `It is saved in ${file}; keep that file private and back it up.`
    )
  })
).pipe(
  Command.withDescription("Register as a partner and save the server URL and API key in the CLI config"),
  Command.withExamples([
    { command: `${CLI_NAME} init`, description: "Asks for name, e-mail, app URL and description" },
    {
      command: `${CLI_NAME} init --name "Acme Deals" --email dev@acme.test --app-url https://acme.test --server http://127.0.0.1:3000`,
      description: "Non-interactive (scripts, CI)"
    }
  ])
)
