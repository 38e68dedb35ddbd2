import { Effect, Layer } from "effect"
import { McpSchema, McpServer } from "effect/ai"
import { MAX_LOOKUP_IDS } from "./toolDefinitions.ts"
import { TOOL_OUTPUTS } from "./toolOutputs.ts"

// The MCP envelope of every tool answer, the same on /mcp and `aff mcp`:
//  - each tool lists a title and an outputSchema (what structuredContent holds);
//  - every answer has structuredContent, errors included (the toolkit puts a
//    failure only in the text block; clients that read structure would see none);
//  - a lookup_catalog batch larger than we serve is JSON-RPC -32602 (Invalid
//    params), as UCP's MCP binding requires of batch limits, before any work
//    (BatchLimits: a middleware, since a handler's invalid-params failure
//    becomes a tool result on protocol 2025-11-25, a middleware's stays an error).
// Applied to the tools the toolkit registered, so the handlers stay plain effects.

/** The batch a tools/call asks for beyond our limit, worded for the JSON-RPC error; undefined when within it. */
const oversizedBatch = (call: unknown): string | undefined => {
  const { name, arguments: args } = (call ?? {}) as { name?: unknown; arguments?: { catalog?: { ids?: unknown } } }
  const ids = name === "lookup_catalog" ? args?.catalog?.ids : undefined
  return Array.isArray(ids) && ids.length > MAX_LOOKUP_IDS
    ? `catalog.ids: at most ${MAX_LOOKUP_IDS} ids per lookup_catalog call, got ${ids.length}`
    : undefined
}

/** Refuses an oversized batch as JSON-RPC -32602 on every protocol revision. */
export const BatchLimits = McpServer.middleware()((effect, { method, payload }) => {
  const refusal = method === "tools/call" ? oversizedBatch(payload) : undefined
  return refusal === undefined ? effect : Effect.fail(new McpSchema.InvalidParams({ message: refusal }))
})

/** An error result's text block (the encoded failure) as its structuredContent too. */
const withStructuredContent = (result: McpSchema.CallToolResult | McpSchema.InputRequired) => {
  if (!(result instanceof McpSchema.CallToolResult) || result.structuredContent !== undefined) return result
  const text = result.content.find((part) => part.type === "text")
  if (text === undefined || text.type !== "text") return result
  try {
    return new McpSchema.CallToolResult({ ...result, structuredContent: JSON.parse(text.text) })
  } catch {
    // a message that is not JSON (the toolkit's own internal-error text): wrapped, so the envelope still has structure
    return new McpSchema.CallToolResult({
      ...result,
      structuredContent: { error: { code: "internal_error", message: text.text } }
    })
  }
}

/** Re-registers every tool the toolkit registered with its title, output schema and envelope rules. */
export const ToolEnvelopes = Layer.effectDiscard(
  Effect.gen(function* () {
    const server = yield* McpServer.McpServer
    // The registry keeps each tool as addTool received it (handler and services included); its type shows less.
    const registered = server.tools as ReadonlyArray<Parameters<typeof server.addTool>[0]>
    for (const registration of [...registered]) {
      const name = registration.tool.name
      const output = TOOL_OUTPUTS[name]
      yield* server.addTool({
        ...registration,
        tool: new McpSchema.Tool({
          ...registration.tool,
          ...(output === undefined ? {} : { title: output.title, outputSchema: output.schema })
        }),
        handle: (payload) => registration.handle(payload).pipe(Effect.map(withStructuredContent))
      })
    }
  })
)
