import { Effect, Layer, Logger } from "effect"
import { Command } from "effect/cli"
import { resolveConnection } from "../Connection.ts"
import * as flags from "../flags.ts"
import { CLI_NAME } from "../name.ts"

// `aff mcp`: the server's MCP tools over stdio, for MCP clients that launch a
// command. Calls go to the server over HTTP, with AFF_API_KEY (or the key
// saved by `init`) as the partner key; stdout carries only the protocol.

export const mcp = Command.make(
  "mcp",
  { server: flags.server },
  Effect.fn("partner.mcp")(function* ({ server }) {
    const connection = yield* resolveConnection(server)
    // Loaded on use: the MCP server modules would slow every other command's start.
    const { stdioServer } = yield* Effect.promise(() => import("../mcp/stdioServer.ts"))
    // stdout belongs to the protocol: any log line goes to stderr
    yield* Layer.launch(stdioServer(connection)).pipe(
      Effect.provide(Logger.layer([Logger.withConsoleError(Logger.formatLogFmt)]))
    )
  })
).pipe(
  Command.withDescription(
    "Serve the shopping tools (UCP catalog search, deals, link matching, programmes, your stats) to an MCP client " +
      "over stdio; calls go to the server. Tracked links carry your tag when AFF_API_KEY (or the saved key) is set."
  ),
  Command.withExamples([
    { command: `AFF_API_KEY=ak_... ${CLI_NAME} mcp`, description: "The command an MCP client launches" }
  ])
)
