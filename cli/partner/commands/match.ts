import { Console, Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { callApi } from "../ApiClient.ts"
import { type Connection, resolveConnection } from "../Connection.ts"
import { isPartnerCliError, NotMatched } from "../errors.ts"
import * as flags from "../flags.ts"
import { CLI_NAME } from "../name.ts"
import type { MatchResponse } from "../../../api/v1/links/Api.ts"
import { commissionText } from "../responses.ts"
import { formatFields } from "../Table.ts"

// By default only the tracking URL, so `URL=$(aff match ...)` just works.
// "Not matched" is a definite answer, not a failure of the CLI or server: it
// exits 3 with the server's reason on stderr (and the body on stdout with
// --json), so a script can tell it apart from usage (1) and server (2) errors.

type MatchedProgram = Extract<typeof MatchResponse.Type, { matched: true }>["program"]

/**
 * The match answer names the commission type only; the rate is on the
 * programme, found by the same host and network the matcher used. It is
 * decoration for --verbose: the link exists already, so a failed lookup shows
 * the type alone instead of failing the command.
 */
const commissionOf = (connection: Connection, program: MatchedProgram) =>
  callApi(connection, {
    auth: "none",
    send: (api) =>
      api.catalog.programs({
        query: { domain: program.domain, network: program.network, limit: 100 },
        responseMode: "response-only"
      }),
    answer: (answers) => answers.programs
  }).pipe(
    Effect.map(({ data }) => data.data.find((candidate) => candidate.id === program.id)),
    Effect.map((found) => (found === undefined ? program.commission_type : commissionText(found))),
    Effect.catchIf(isPartnerCliError, () => Effect.succeed(`${program.commission_type} (rate not available)`))
  )

export const match = Command.make(
  "match",
  {
    merchantUrl: Argument.String("url").pipe(Argument.withDescription("Any merchant product or page URL")),
    verbose: Flag.Boolean("verbose").pipe(
      Flag.withDescription("Also print the programme, network, commission and affiliate URL"),
      Flag.withDefault(false)
    ),
    server: flags.server,
    json: flags.json
  },
  Effect.fn("partner.match")(function* ({ json, merchantUrl, server, verbose }) {
    const connection = yield* resolveConnection(server)
    const { data, raw } = yield* callApi(connection, {
      auth: "optional",
      send: (api) => api.links.match({ payload: { url: merchantUrl }, responseMode: "response-only" }),
      answer: (answers) => answers.match
    })
    if (json) yield* Console.log(JSON.stringify(raw, null, 2))
    if (!data.matched) {
      return yield* new NotMatched({
        reason: data.reason,
        message: data.message
      })
    }
    if (json) return
    if (!verbose) return yield* Console.log(data.link.tracking_url)
    yield* Console.log(
      formatFields([
        ["Tracking URL", data.link.tracking_url],
        ["Programme", `${data.program.name} (${data.program.id})`],
        ["Network", data.program.network],
        ["Domain", data.program.domain],
        ["Commission", yield* commissionOf(connection, data.program)],
        ["Affiliate URL", data.link.affiliate_url],
        ...(!data.created ? [["Note", "you already had this link; it is returned again"] as const] : [])
      ])
    )
  })
).pipe(
  Command.withDescription("Turn a merchant URL into a tracking link for the best affiliate programme"),
  Command.withExamples([
    {
      command: `${CLI_NAME} match https://www.example-store.com/p/123`,
      description: "Print the tracking URL to share"
    },
    {
      command: `${CLI_NAME} match --verbose https://www.example-store.com/p/123`,
      description: "With programme, network, commission"
    }
  ])
)
