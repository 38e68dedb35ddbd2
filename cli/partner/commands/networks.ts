import { Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { callApi } from "../ApiClient.ts"
import { resolveConnection } from "../Connection.ts"
import * as flags from "../flags.ts"
import { NetworkItem, Page, withPageFooter } from "../responses.ts"
import { cell, formatTable } from "../Table.ts"

export const networks = Command.make(
  "networks",
  {
    status: Flag.String("status").pipe(
      Flag.withDescription("Only networks with this status: active, paused or closed"),
      Flag.optional
    ),
    q: Flag.String("q").pipe(Flag.withDescription("Search term (name, website)"), Flag.optional),
    limit: flags.limit,
    offset: flags.offset,
    url: flags.url,
    json: flags.json
  },
  Effect.fn("partner.networks")(function*({ json, limit, offset, q, status, url }) {
    const connection = yield* resolveConnection(url)
    const { data, raw } = yield* callApi(connection, {
      method: "GET",
      path: "/api/v1/networks",
      auth: "none",
      query: {
        status: Option.getOrUndefined(status),
        q: Option.getOrUndefined(q),
        limit: Option.getOrUndefined(limit),
        offset: Option.getOrUndefined(offset)
      }
    }, Page(NetworkItem))
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
      ))
  })
).pipe(
  Command.withDescription("List affiliate networks"),
  Command.withExamples([{ command: "partner networks --status active --q awin", description: "Active networks matching 'awin'" }])
)

