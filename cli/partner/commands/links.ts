import { Effect, Option } from "effect"
import { Command } from "effect/cli"
import { callApi } from "../ApiClient.ts"
import { resolveConnection } from "../Connection.ts"
import * as flags from "../flags.ts"
import { field, Page, pageFooter } from "../responses.ts"
import { cell, formatTable } from "../Table.ts"

export const links = Command.make(
  "links",
  { limit: flags.limit, offset: flags.offset, url: flags.url, json: flags.json },
  Effect.fn("partner.links")(function*({ json, limit, offset, url }) {
    const connection = yield* resolveConnection(url)
    const { data, raw } = yield* callApi(connection, {
      method: "GET",
      path: "/api/v1/links",
      auth: "optional",
      query: { limit: Option.getOrUndefined(limit), offset: Option.getOrUndefined(offset) }
    }, Page)
    yield* flags.printResult(json, raw, () =>
      [
        formatTable(
          [
            { header: "TRACKING URL" },
            { header: "PROGRAMME", maxWidth: 28 },
            { header: "NETWORK", maxWidth: 20 },
            { header: "CLICKS", align: "right" },
            { header: "CREATED" },
            { header: "ORIGINAL URL", maxWidth: 60 }
          ],
          data.data.map((link) => [
            cell(field(link, "tracking_url", "tracking_id")),
            cell(field(link, "program.name", "program_name", "program")),
            cell(field(link, "program.network", "network.name", "network_name", "network")),
            cell(field(link, "clicks.total", "clicks", "click_count")),
            cell(field(link, "created_at")).slice(0, 10),
            cell(field(link, "original_url"))
          ])
        ),
        pageFooter(data)
      ].filter((line) => line.length > 0).join("\n"))
  })
).pipe(
  Command.withDescription("List your tracking links (anonymous links when no API key is configured)"),
  Command.withExamples([{ command: "partner links --limit 50", description: "The 50 most recent links" }])
)
