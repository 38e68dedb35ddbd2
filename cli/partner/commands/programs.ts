import { Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { callApi } from "../ApiClient.ts"
import { resolveConnection } from "../Connection.ts"
import * as flags from "../flags.ts"
import { commissionText, withPageFooter } from "../responses.ts"
import { formatTable } from "../Table.ts"

// Which programmes (merchants on a network) exist, e.g. to see what `match`
// would consider for a domain before sharing a link.

const optionalText = (name: string, description: string) =>
  Flag.String(name).pipe(Flag.withDescription(description), Flag.optional)

export const programs = Command.make(
  "programs",
  {
    network: optionalText("network", "Only this network (id, e.g. awin)"),
    domain: optionalText("domain", "Programmes the matcher would consider for this host"),
    q: optionalText("q", "Search term (name)"),
    status: Flag.Literals("status", ["active", "paused", "closed", "pending"]).pipe(
      Flag.withDescription("Only programmes with this status"),
      Flag.optional
    ),
    country: optionalText("country", "ISO 3166-1 alpha-2 code, e.g. GB"),
    limit: flags.limit,
    offset: flags.offset,
    server: flags.server,
    json: flags.json
  },
  Effect.fn("partner.programs")(function* ({ country, domain, json, limit, network, offset, q, status, server }) {
    const connection = yield* resolveConnection(server)
    const { data, raw } = yield* callApi(connection, {
      auth: "none",
      send: (api) =>
        api.catalog.programs({
          query: {
            network: Option.getOrUndefined(network),
            domain: Option.getOrUndefined(domain),
            q: Option.getOrUndefined(q),
            status: Option.getOrUndefined(status),
            country: Option.getOrUndefined(country),
            limit: Option.getOrUndefined(limit),
            offset: Option.getOrUndefined(offset)
          },
          responseMode: "response-only"
        }),
      answer: (answers) => answers.programs
    })
    yield* flags.printResult(json, raw, () =>
      withPageFooter(
        formatTable(
          [
            { header: "ID", maxWidth: 32 },
            { header: "NAME", maxWidth: 28 },
            { header: "STATUS" },
            { header: "COUNTRY" },
            { header: "COMMISSION", align: "right" },
            { header: "DOMAINS", maxWidth: 40 }
          ],
          data.data.map((program) => [
            program.id,
            program.name,
            program.status,
            program.country ?? "",
            commissionText(program),
            program.domains.join(",")
          ])
        ),
        data
      )
    )
  })
).pipe(
  Command.withDescription("List affiliate programmes (merchants on a network)"),
  Command.withExamples([
    { command: "aff programs --domain www.waterstones.com", description: "What a match for this host would consider" },
    { command: "aff programs --network awin --country GB", description: "Awin's UK programmes" }
  ])
)
