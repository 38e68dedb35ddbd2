import { Effect, Option } from "effect"
import { Command } from "effect/cli"
import { callApi } from "../ApiClient.ts"
import { resolveConnection } from "../Connection.ts"
import * as flags from "../flags.ts"
import { withPageFooter } from "../responses.ts"
import { formatTable } from "../Table.ts"

export const links = Command.make(
  "links",
  { limit: flags.limit, offset: flags.offset, server: flags.server, json: flags.json },
  Effect.fn("partner.links")(function* ({ json, limit, offset, server }) {
    const connection = yield* resolveConnection(server)
    const { data, raw } = yield* callApi(connection, {
      auth: "required",
      send: (api) =>
        api.links.list({
          query: { limit: Option.getOrUndefined(limit), offset: Option.getOrUndefined(offset) },
          responseMode: "response-only"
        }),
      answer: (answers) => answers.links
    })
    yield* flags.printResult(json, raw, () =>
      withPageFooter(
        formatTable(
          [
            { header: "TRACKING URL" },
            { header: "NAME", maxWidth: 24 },
            { header: "STATE" },
            { header: "PROGRAMME", maxWidth: 28 },
            { header: "NETWORK", maxWidth: 20 },
            { header: "SOURCE" },
            { header: "CREATED" },
            { header: "ORIGINAL URL", maxWidth: 60 }
          ],
          data.data.map((link) => [
            link.tracking_url,
            link.name ?? "",
            link.state,
            // an unaffiliated link earns nothing: say so where the programme would be
            link.status === "unaffiliated" ? "unaffiliated" : (link.program_id ?? ""),
            link.network_id ?? "",
            link.source,
            link.created_at.slice(0, 10),
            link.original_url
          ])
        ),
        data
      )
    )
  })
).pipe(
  Command.withDescription("List your tracking links (anonymous links when no API key is configured)"),
  Command.withExamples([{ command: "aff links --limit 50", description: "The 50 most recent links" }])
)
