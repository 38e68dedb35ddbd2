import { Console } from "effect"
import { Flag } from "effect/cli"

// Flags every command shares, defined once so they read the same everywhere.

export const server = Flag.String("server").pipe(
  Flag.withAlias("url"),
  Flag.withDescription("Server base URL (default: AFF_SERVER, then the URL saved by init, then http://127.0.0.1:3000)"),
  Flag.optional
)

export const json = Flag.Boolean("json").pipe(
  Flag.withDescription("Print the server's JSON response unchanged, for scripts"),
  Flag.withDefault(false)
)

export const limit = Flag.Int("limit").pipe(
  Flag.withDescription("Page size (1-100; the server's default is 20)"),
  Flag.optional
)

export const offset = Flag.Int("offset").pipe(
  Flag.withDescription("Rows to skip (see the 'Next page' hint under a table)"),
  Flag.optional
)

/** Raw JSON for --json, otherwise the human rendering. */
export const printResult = (asJson: boolean, raw: unknown, human: () => string) =>
  Console.log(asJson ? JSON.stringify(raw, null, 2) : human())
