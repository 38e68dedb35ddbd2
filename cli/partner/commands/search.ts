import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { callApi } from "../ApiClient.ts"
import { type Connection, resolveConnection } from "../Connection.ts"
import * as flags from "../flags.ts"
import { CLI_NAME } from "../name.ts"
import type { SearchFeed as SearchFeedSchema } from "../../../discovery/schemas.ts"
import { formatTable } from "../Table.ts"

// Products for a shopping phrase, each with a tracked link to share. The
// discovery search (GET /api/search) builds those links with a partner tag,
// and the first click on one files the link under that partner, so the tag
// must be the caller's: the one saved by `init` for the saved key, or looked
// up with the key when it came from AFF_API_KEY. Without a key the links
// carry the server's default tag and earn nobody anything; the output says so.

const partnerTag = (connection: Connection) =>
  Option.isSome(connection.storedTag) || Option.isNone(connection.apiKey)
    ? Effect.succeed(connection.storedTag)
    : callApi(connection, {
        auth: "required",
        send: (api) => api.partners.me({ responseMode: "response-only" }),
        answer: (answers) => answers.stats
      }).pipe(Effect.map(({ data }) => Option.some(data.partner.tag)))

export const search = Command.make(
  "search",
  {
    query: Argument.String("query").pipe(
      Argument.withDescription('What to look for, e.g. "wireless earbuds under 100" (price phrases become filters)')
    ),
    category: Flag.String("category").pipe(Flag.withDescription("Only this category"), Flag.optional),
    limit: Flag.Int("limit").pipe(Flag.withDescription("Results (1-100; the server's default is 8)"), Flag.optional),
    server: flags.server,
    json: flags.json
  },
  Effect.fn("partner.search")(function* ({ category, json, limit, query, server }) {
    const connection = yield* resolveConnection(server)
    const tag = yield* partnerTag(connection)
    const { data, raw } = yield* callApi(connection, {
      auth: "none",
      send: (api) =>
        api.search({
          query: {
            q: query,
            category: Option.getOrUndefined(category),
            limit: Option.getOrUndefined(limit),
            tag: Option.getOrUndefined(tag)
          },
          responseMode: "response-only"
        }),
      answer: (answers) => answers.search
    })
    yield* flags.printResult(json, raw, () => renderResults(data, tag))
  })
).pipe(
  Command.withDescription("Product search: prices and tracked links (attributed to you when a key is configured)"),
  Command.withExamples([
    { command: `${CLI_NAME} search "noise cancelling headphones" --limit 5`, description: "Top five products" },
    { command: `${CLI_NAME} search "running shoes under 80" --json`, description: "The server's answer, for scripts" }
  ])
)

type SearchFeed = typeof SearchFeedSchema.Type

const money = (amount: number, currency: string) => `${amount.toFixed(2)} ${currency}`

const renderResults = (feed: SearchFeed, tag: Option.Option<string>): string => {
  // the first sentence says how the phrase was read ("... max price 100 USD"); the rest is advice for agents
  const interpretation = feed.guidance.split(/(?<=\.)\s/)[0] ?? ""
  const table = formatTable(
    [
      { header: "TITLE", maxWidth: 44 },
      { header: "PRICE", align: "right" },
      { header: "30-DAY LOW", align: "right" },
      { header: "STORE", maxWidth: 20 },
      { header: "STOCK" },
      { header: "TRACKED LINK" }
    ],
    feed.results.map((result) => [
      result.title,
      money(result.price.amount, result.price.currency),
      result.price.originalPrice === undefined
        ? ""
        : `${result.price.originalPrice.toFixed(2)} (-${result.price.discountPercent ?? 0}%)`,
      result.store,
      result.availability.replace(/_/g, " "),
      result.links.tracked
    ])
  )
  const attribution = Option.match(tag, {
    onSome: (value) => `Links carry your tag "${value}".`,
    onNone: () => `Links carry no partner tag (no API key): run \`${CLI_NAME} init\` so clicks earn for you.`
  })
  return [interpretation, table, attribution].filter((part) => part.length > 0).join("\n")
}
