import { Effect, Option, Redacted } from "effect"
import type { ToolFailure } from "../../../api/mcp/toolDefinitions.ts"
import type { Connection } from "../Connection.ts"

// `aff mcp` answers tool calls by asking the server's /mcp endpoint, over
// HTTP like every other aff command: initialize once per process (on the
// first call), the partner key as `Authorization: Bearer`. Our server keeps no
// session (no Mcp-Session-Id); one that does gets its id back, and is asked
// again once if it forgot it (404, e.g. after a restart).

const PROTOCOL_VERSION = "2025-11-25"
const TIMEOUT_MS = 30_000

interface RpcAnswer {
  readonly result?: {
    readonly isError?: boolean
    readonly structuredContent?: unknown
    readonly content?: ReadonlyArray<{ type: string; text?: string }>
  }
  readonly error?: { readonly code: number; readonly message: string }
}

const failure = (code: string, message: string): ToolFailure => ({ error: { code, message } })

/** A JSON answer, or the JSON-RPC message with our id from an event stream. */
const readAnswer = async (response: Response, id: number): Promise<RpcAnswer | undefined> => {
  const text = await response.text()
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream"))
    return text === "" ? undefined : JSON.parse(text)
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith("data:")) continue
    const message = JSON.parse(line.slice(5))
    if (message.id === id) return message
  }
  return undefined
}

const unreachable = (connection: Connection, error: unknown) => {
  const cause = (error as { cause?: { code?: string } }).cause?.code
  const reason =
    cause === "ECONNREFUSED"
      ? "connection refused"
      : (cause ?? (error instanceof Error ? error.message : String(error)))
  return failure(
    "server_unreachable",
    `cannot reach ${connection.baseUrl}: ${reason} (is the service running? set AFF_SERVER or --server)`
  )
}

export const makeRemoteMcp = (connection: Connection, clientVersion: string) => {
  const endpoint = `${connection.baseUrl}/mcp`
  let nextId = 1
  let initialized = false
  let session: string | undefined

  const post = (body: unknown) =>
    fetch(endpoint, {
      method: "POST",
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": PROTOCOL_VERSION,
        ...(session === undefined ? {} : { "mcp-session-id": session }),
        ...(Option.isSome(connection.apiKey)
          ? { authorization: `Bearer ${Redacted.value(connection.apiKey.value)}` }
          : {})
      },
      body: JSON.stringify(body)
    })

  const open = async () => {
    session = undefined
    initialized = false
    const id = nextId++
    const response = await post({
      jsonrpc: "2.0",
      id,
      method: "initialize",
      params: {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "aff-mcp", version: clientVersion }
      }
    })
    const answer = await readAnswer(response, id)
    if (!response.ok || answer?.error !== undefined) {
      throw new Error(`the server refused the MCP session: ${answer?.error?.message ?? `HTTP ${response.status}`}`)
    }
    session = response.headers.get("mcp-session-id") ?? undefined
    await (await post({ jsonrpc: "2.0", method: "notifications/initialized" })).text()
    initialized = true
  }

  const call = async (
    name: string,
    args: unknown,
    retry: boolean
  ): Promise<{ ok: true; value: unknown } | { ok: false; failure: ToolFailure }> => {
    if (!initialized) await open()
    const id = nextId++
    const response = await post({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args ?? {} } })
    // 404: the server no longer knows our session (it restarted); open a new one once.
    if (response.status === 404 && retry) {
      await response.text()
      await open()
      return call(name, args, false)
    }
    const answer = await readAnswer(response, id)
    if (answer?.error !== undefined) return { ok: false, failure: failure("mcp_error", answer.error.message) }
    const result = answer?.result
    if (result === undefined)
      return { ok: false, failure: failure("unexpected_response", `HTTP ${response.status} without a tool result`) }
    if (result.isError === true) {
      const text = result.content?.find((part) => part.type === "text")?.text ?? ""
      try {
        return { ok: false, failure: JSON.parse(text) as ToolFailure }
      } catch {
        return { ok: false, failure: failure("tool_error", text) }
      }
    }
    return { ok: true, value: result.structuredContent }
  }

  /** The server's answer to one tool call: its result, or its tool error body. */
  const callTool = (name: string, args: unknown): Effect.Effect<unknown, ToolFailure> =>
    Effect.tryPromise({ try: () => call(name, args, true), catch: (error) => unreachable(connection, error) }).pipe(
      Effect.flatMap((outcome) => (outcome.ok ? Effect.succeed(outcome.value) : Effect.fail(outcome.failure)))
    )

  return { callTool }
}
