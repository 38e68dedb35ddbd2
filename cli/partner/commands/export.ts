import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { writeFileSync } from "node:fs"
import { callApi } from "../ApiClient.ts"
import { resolveConnection } from "../Connection.ts"
import { ConfigError } from "../errors.ts"
import * as flags from "../flags.ts"
import { CLI_NAME } from "../name.ts"

// `aff export`: GET /api/v1/partners/me/export?format=csv, your clicks per
// day and link and your conversions as CSV, on stdout (to pipe or redirect)
// or into --out.

export const exportCsv = Command.make(
  "export",
  {
    out: Flag.String("out").pipe(Flag.withDescription("Write the CSV to this file instead of stdout"), Flag.optional),
    server: flags.server
  },
  Effect.fn("partner.export")(function* ({ out, server }) {
    const connection = yield* resolveConnection(server)
    const { data: csv } = yield* callApi(connection, {
      auth: "required",
      text: true,
      send: (api) => api.partners.export({ query: { format: "csv" }, responseMode: "response-only" }),
      answer: (answers) => answers.exportCsv
    })
    if (Option.isNone(out)) return yield* Console.log(csv.replace(/\r\n$/, ""))
    yield* Effect.try({
      try: () => writeFileSync(out.value, csv),
      catch: (error) => new ConfigError({ message: `could not write ${out.value}: ${String(error)}` })
    })
    yield* Console.error(`Wrote ${csv.split("\r\n").length - 2} rows to ${out.value}`)
  })
).pipe(
  Command.withDescription("Export your clicks per day and your conversions as CSV (the sums match `stats`)"),
  Command.withExamples([{ command: `${CLI_NAME} export --out business.csv`, description: "Save the CSV to a file" }])
)
