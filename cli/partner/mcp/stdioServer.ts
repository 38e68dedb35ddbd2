import { Layer } from "effect"
import { McpServer } from "effect/ai"
import { PROTOCOLS, SERVER_INFO } from "../../../api/mcp/serverInfo.ts"
import { ShoppingTools } from "../../../api/mcp/toolDefinitions.ts"
import type { Connection } from "../Connection.ts"
import { JsonLinesOnly } from "./jsonLinesOnly.ts"
import { makeRemoteMcp } from "./RemoteMcp.ts"

/**
 * The MCP server of `aff mcp` on stdin/stdout: the same tool definitions as
 * /mcp, each call answered by the server over HTTP.
 */
export const stdioServer = (connection: Connection) => {
  const remote = makeRemoteMcp(connection, SERVER_INFO.version)
  const handlers = Object.fromEntries(
    Object.keys(ShoppingTools.tools).map((name) => [name, (args: unknown) => remote.callTool(name, args)])
  )
  return McpServer.layerStdio({
    ...SERVER_INFO,
    protocols: PROTOCOLS,
    registrations: McpServer.toolkit(ShoppingTools).pipe(Layer.provide(ShoppingTools.toLayer(handlers as any)))
  }).pipe(Layer.provide(JsonLinesOnly))
}
