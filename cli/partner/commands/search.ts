import { Effect, Option } from "effect"
import { Argument, Command } from "effect/cli"
import { callApi } from "../ApiClient.ts"
import { resolveConnection } from "../Connection.ts"
import * as flags from "../flags.ts"
import { field, Page, pageFooter } from "../responses.ts"
import { cell, formatTable } from "../Table.ts"

export const search = Command.make(
  "search",
  {
    query: Argument.String("query").pipe(Argument.withDescription("What to look for, e.g. \"wireless earbuds\"")),
    limit: flags.limit,
    offset: flags.offset,
    url: flags.url,
    json: flags.json
  },
  Effect.fn("partner.search")(function*({ json, limit, offset, query, url }) {
    const connection = yield* resolveConnection(url)
    const { data, raw } = yield* callApi(connection, {
      method: "GET",
      path: "/api/v1/products/search",
      auth: "none",
      query: { q: query, limit: Option.getOrUndefined(limit), offset: Option.getOrUndefined(offset) }
    }, Page)
    yield* flags.printResult(json, raw, () =>
      [
        formatTable(
          [
            { header: "TITLE", maxWidth: 48 },
            { header: "PRICE", align: "right" },
            { header: "STORE", maxWidth: 24 },
            { header: "ID", maxWidth: 36 }
          ],
          data.data.map((product) => [
            cell(field(product, "title", "name")),
            price(product),
            cell(field(product, "store", "store_domain", "merchant")),
            cell(field(product, "id", "product_id"))
          ])
        ),
        pageFooter(data)
      ].filter((line) => line.length > 0).join("\n"))
  })
).pipe(
  Command.withDescription("Full-text product search across all feeds"),
  Command.withExamples([{ command: "partner search \"noise cancelling headphones\" --limit 5", description: "Top five products" }])
)

/** "129.99 USD", whether the server sends `price` as a number, a string or `{ amount, currency }`. */
const price = (product: unknown) => {
  const amount = field(product, "price.amount", "current_price", "price")
  const currency = field(product, "price.currency", "currency")
  if (amount === undefined || typeof amount === "object") return ""
  const text = typeof amount === "number" ? amount.toFixed(2) : String(amount)
  return typeof currency === "string" ? `${text} ${currency}` : text
}
