import { Effect, type Option } from "effect"
import type { LinkItem } from "../../../api/v1/links/Api.ts"
import { Argument, Command } from "effect/cli"
import { callApi } from "../ApiClient.ts"
import { resolveConnection } from "../Connection.ts"
import * as flags from "../flags.ts"
import { CLI_NAME } from "../name.ts"

// `aff link name|disable|enable|delete <tracking id>`: one link at a time,
// through PATCH and DELETE /api/v1/links/{tracking_id}. A tracking id that is
// not yours answers 404 (exit 3); a disabled or deleted link's /t/ answers
// 410 Gone and counts no click, and its history stays in `aff stats`.

const trackingId = Argument.String("tracking-id").pipe(
  Argument.withDescription("The link's tracking id (the part after /t/ in its tracking URL)")
)

const edit = (id: string, body: { name?: string | null; disabled?: boolean }, server: Option.Option<string>) =>
  Effect.gen(function* () {
    const connection = yield* resolveConnection(server)
    return yield* callApi(connection, {
      auth: "required",
      send: (api) => api.links.edit({ params: { tracking_id: id }, payload: body, responseMode: "response-only" }),
      answer: (answers) => answers.editedLink
    })
  })

const describe = (link: typeof LinkItem.Type) =>
  `${link.tracking_url}  ${link.state}${link.name === null ? "" : `  "${link.name}"`}`

const name = Command.make(
  "name",
  {
    trackingId,
    name: Argument.String("name").pipe(Argument.withDescription('The new name ("" removes it)')),
    server: flags.server,
    json: flags.json
  },
  Effect.fn("partner.link.name")(function* (input) {
    const { data, raw } = yield* edit(input.trackingId, { name: input.name }, input.server)
    yield* flags.printResult(input.json, raw, () => describe(data))
  })
).pipe(Command.withDescription("Give one of your links a name (shown in the dashboard, stats and the export)"))

const toggle = (command: "disable" | "enable") =>
  Command.make(
    command,
    { trackingId, server: flags.server, json: flags.json },
    Effect.fn(`partner.link.${command}`)(function* (input) {
      const { data, raw } = yield* edit(input.trackingId, { disabled: command === "disable" }, input.server)
      yield* flags.printResult(input.json, raw, () => describe(data))
    })
  ).pipe(
    Command.withDescription(
      command === "disable"
        ? "Disable a link: /t/ answers 410 Gone and counts no click until you enable it"
        : "Enable a disabled link: it redirects again"
    )
  )

const remove = Command.make(
  "delete",
  { trackingId, server: flags.server, json: flags.json },
  Effect.fn("partner.link.delete")(function* (input) {
    const connection = yield* resolveConnection(input.server)
    const { raw } = yield* callApi(connection, {
      auth: "required",
      send: (api) => api.links.remove({ params: { tracking_id: input.trackingId }, responseMode: "response-only" }),
      answer: (answers) => answers.deletedLink
    })
    yield* flags.printResult(
      input.json,
      raw,
      () => `Deleted ${input.trackingId}: /t/ answers 410 Gone; its clicks and earnings stay in your stats.`
    )
  })
).pipe(Command.withDescription("Delete a link (matching its URL again brings it back; its history stays)"))

export const link = Command.make("link").pipe(
  Command.withDescription("Name, disable, enable or delete one of your links"),
  Command.withSubcommands([name, toggle("disable"), toggle("enable"), remove]),
  Command.withExamples([
    { command: `${CLI_NAME} link name Qm7xK2pL9vTa "Winter boots post"`, description: "Name a link" },
    { command: `${CLI_NAME} link disable Qm7xK2pL9vTa`, description: "Stop a link redirecting" }
  ])
)
