import { Layer } from "effect"
import { McpServer } from "effect/ai"
import { PROTOCOLS, SERVER_INFO } from "../../../api/mcp/serverInfo.ts"
import { ShoppingTools } from "../../../api/mcp/toolDefinitions.ts"
import { BatchLimits, ToolEnvelopes } from "../../../api/mcp/toolEnvelopes.ts"
import type { Connection } from "../Connection.ts"
import { JsonLinesOnly } from "./jsonLinesOnly.ts"
import { makeRemoteMcp } from "./RemoteMcp.ts"

/**
 * The MCP server of `aff mcp` on stdin/stdout: the same tool definitions as
 * /mcp, each call answered by the server over HTTP.
 */
export const stdioServer = (connection: Connection) => {
  const remote = makeRemoteMcp(connection, SERVER_INFO.version)
  // Every tool is answered by the server's tool of the same name; listing them
  // keeps the handler set checked against the toolkit (a new tool fails to compile here).
  const forward = (name: string) => (args: unknown) => remote.callTool(name, args)
  const handlers: Parameters<typeof ShoppingTools.toLayer>[0] = {
    search_catalog: forward("search_catalog"),
    lookup_catalog: forward("lookup_catalog"),
    get_product: forward("get_product"),
    list_deals: forward("list_deals"),
    match_link: forward("match_link"),
    find_programs: forward("find_programs"),
    partner_stats: forward("partner_stats")
  }
  return McpServer.layerStdio({
    ...SERVER_INFO,
    protocols: PROTOCOLS,
    registrations: ToolEnvelopes.pipe(
      Layer.provide(
        McpServer.toolkit(ShoppingTools).pipe(
          Layer.provide(BatchLimits.layer),
          Layer.provide(ShoppingTools.toLayer(handlers))
        )
      )
    )
  }).pipe(Layer.provide(JsonLinesOnly))
}
