import { Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { callApi } from "../ApiClient.ts"
import { resolveConnection } from "../Connection.ts"
import * as flags from "../flags.ts"
import { withPageFooter } from "../responses.ts"
import { cell, formatTable } from "../Table.ts"

export const networks = Command.make(
  "networks",
  {
    // the values GET /api/v1/networks accepts, so a typo is a usage error before any request
    status: Flag.Literals("status", ["active", "paused", "closed"]).pipe(
      Flag.withDescription("Only networks with this status"),
      Flag.optional
    ),
    q: Flag.String("q").pipe(Flag.withDescription("Search term (name, website)"), Flag.optional),
    limit: flags.limit,
    offset: flags.offset,
    server: flags.server,
    json: flags.json
  },
  Effect.fn("partner.networks")(function* ({ json, limit, offset, q, status, server }) {
    const connection = yield* resolveConnection(server)
    const { data, raw } = yield* callApi(connection, {
      auth: "none",
      send: (api) =>
        api.catalog.networks({
          query: {
            status: Option.getOrUndefined(status),
            q: Option.getOrUndefined(q),
            limit: Option.getOrUndefined(limit),
            offset: Option.getOrUndefined(offset)
          },
          responseMode: "response-only"
        }),
      answer: (answers) => answers.networks
    })
    yield* flags.printResult(json, raw, () =>
      withPageFooter(
        formatTable(
          [
            { header: "ID" },
            { header: "NAME", maxWidth: 32 },
            { header: "STATUS" },
            { header: "PROGRAMMES", align: "right" },
            { header: "REGIONS", maxWidth: 24 },
            { header: "WEBSITE", maxWidth: 40 }
          ],
          data.data.map((network) => [
            network.id,
            network.name,
            network.status,
            cell(network.programs),
            network.regions.join(","),
            network.website ?? ""
          ])
        ),
        data
      )
    )
  })
).pipe(
  Command.withDescription("List affiliate networks"),
  Command.withExamples([
    { command: "aff networks --status active --q awin", description: "Active networks matching 'awin'" }
  ])
)
