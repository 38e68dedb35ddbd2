import { Console, Effect } from "effect"
import { Argument, Command } from "effect/cli"
import { callApi } from "../ApiClient.ts"
import { resolveConnection } from "../Connection.ts"
import * as flags from "../flags.ts"
import { MatchResponse } from "../responses.ts"
import { formatFields } from "../Table.ts"

// "Not matched" is an answer, not an error: it prints the server's reason and
// exits 0, so a script can tell it apart from a failure (exit 1).

export const match = Command.make(
  "match",
  {
    merchantUrl: Argument.String("url").pipe(Argument.withDescription("Any merchant product or page URL")),
    url: flags.url,
    json: flags.json
  },
  Effect.fn("partner.match")(function*({ json, merchantUrl, url }) {
    const connection = yield* resolveConnection(url)
    const { data, raw } = yield* callApi(connection, {
      method: "POST",
      path: "/api/v1/links/match",
      auth: "optional",
      body: { url: merchantUrl }
    }, MatchResponse)
    if (json) return yield* Console.log(JSON.stringify(raw, null, 2))
    if (!data.matched) {
      return yield* Console.log(`Not matched (${data.reason}): ${data.message ?? "no affiliate programme covers this URL"}`)
    }
    yield* Console.log(formatFields([
      ["Tracking URL", data.link.tracking_url],
      ["Programme", `${data.program.name} (${data.program.id})`],
      ["Network", data.program.network],
      ["Domain", data.program.domain],
      ["Commission", data.program.commission_type],
      ["Affiliate URL", data.link.affiliate_url],
      ...(data.created === false ? [["Note", "you already had this link; it is returned again"] as const] : [])
    ]))
  })
).pipe(
  Command.withDescription("Turn a merchant URL into a tracking link for the best affiliate programme"),
  Command.withExamples([{
    command: "partner match https://www.example-store.com/p/123",
    description: "Get the tracking URL to share"
  }])
)
