import { Effect, Option } from "effect"
import { Argument, Command } from "effect/cli"
import { callApi } from "../ApiClient.ts"
import { resolveConnection } from "../Connection.ts"
import * as flags from "../flags.ts"
import { Page, withPageFooter, ProductItem } from "../responses.ts"
import { formatTable } from "../Table.ts"

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
    }, Page(ProductItem))
    yield* flags.printResult(json, raw, () =>
      withPageFooter(
        formatTable(
          [
            { header: "TITLE", maxWidth: 48 },
            { header: "PRICE", align: "right" },
            { header: "DEAL" },
            { header: "STORE", maxWidth: 24 },
            { header: "PRODUCT ID", maxWidth: 40 }
          ],
          data.data.map((product) => [
            product.title,
            `${product.price.amount.toFixed(2)} ${product.price.currency}`,
            product.is_deal ? "deal" : "",
            product.store,
            product.product_id
          ])
        ),
        data
      ))
  })
).pipe(
  Command.withDescription("Full-text product search across all feeds"),
  Command.withExamples([{ command: "partner search \"noise cancelling headphones\" --limit 5", description: "Top five products" }])
)

