import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { join, resolve } from "node:path"
import { cleanEnv } from "../../cli/partnerCli.ts"

// MCP clients no one here wrote: the official TypeScript SDK's client over
// Streamable HTTP (against /mcp) and over stdio (launching `aff mcp`).

const repo = resolve(import.meta.dirname, "..", "..", "..")

export const httpClient = async (serverUrl: string, apiKey?: string) => {
  const client = new Client({ name: "mcp-test", version: "1.0.0" })
  const headers: Record<string, string> = apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }
  await client.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl}/mcp`), { requestInit: { headers } }))
  return client
}

/** `aff mcp` as a child process, the way an MCP client launches it: HOME in a temp folder, no AFF_* from our shell. */
export const stdioClient = async (home: string, env: Record<string, string>) => {
  const client = new Client({ name: "mcp-test", version: "1.0.0" })
  await client.connect(
    new StdioClientTransport({
      command: join(repo, "node_modules", ".bin", "node"),
      args: ["cli/partner.ts", "mcp"],
      cwd: repo,
      env: cleanEnv(home, env),
      stderr: "pipe"
    })
  )
  return client
}

export interface ToolAnswer {
  readonly isError: boolean
  readonly body: any
}

/** A tool's answer: structuredContent when it succeeded, the parsed error body (text content) when it failed. */
export const call = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> => {
  const result = await client.callTool({ name, arguments: args })
  const text = (result.content as Array<{ type: string; text: string }>).find((part) => part.type === "text")?.text
  const isError = result.isError === true
  return {
    isError,
    body: isError ? JSON.parse(text ?? "null") : (result.structuredContent ?? JSON.parse(text ?? "null"))
  }
}
