import { request } from "node:http"

// Raw HTTP to /mcp, for what the official SDK client cannot send: a
// JSON-RPC batch, a chosen protocol revision, malformed messages, wrong
// headers, a chunked body.

export const MCP_ACCEPT = "application/json, text/event-stream"

export interface RawAnswer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  /** The JSON body, or the JSON-RPC messages of an SSE body (one per `data:` line). */
  readonly messages: ReadonlyArray<any>
}

const messagesOf = (text: string, contentType: string) => {
  if (contentType.includes("text/event-stream")) {
    return text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)))
  }
  if (text === "") return []
  try {
    const body = JSON.parse(text)
    return Array.isArray(body) ? body : [body]
  } catch {
    return []
  }
}

export const postMcp = async (
  serverUrl: string,
  body: unknown,
  headers: Record<string, string> = {}
): Promise<RawAnswer> => {
  const response = await fetch(`${serverUrl}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: MCP_ACCEPT, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    text,
    messages: messagesOf(text, response.headers.get("content-type") ?? "")
  }
}

/**
 * initialize at `protocolVersion` and notifications/initialized: the session
 * id the server answered with (ours answers none) and the headers of later requests.
 */
export const openSession = async (
  serverUrl: string,
  protocolVersion: string,
  headers: Record<string, string> = {},
  params: Record<string, unknown> = {}
) => {
  const init = await postMcp(
    serverUrl,
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw-test", version: "1.0.0" }, ...params }
    },
    headers
  )
  const sessionId = init.headers.get("mcp-session-id") ?? undefined
  if (init.messages[0]?.result === undefined) return { init, sessionId }
  const session: Record<string, string> = {
    ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId }),
    "mcp-protocol-version": protocolVersion,
    ...headers
  }
  const initialized = await postMcp(serverUrl, { jsonrpc: "2.0", method: "notifications/initialized" }, session)
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`)
  return { init, sessionId, headers: session }
}

/** A POST whose body is sent chunked (no Content-Length), `size` bytes of a JSON-RPC message. */
export const postChunked = (serverUrl: string, size: number) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const url = new URL(`${serverUrl}/mcp`)
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { "content-type": "application/json", accept: MCP_ACCEPT, "transfer-encoding": "chunked" }
      },
      (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (chunk: Buffer) => chunks.push(chunk))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }))
      }
    )
    // The server may answer and close before the whole body is written.
    req.on("error", (error) => (/EPIPE|ECONNRESET/.test(String(error)) ? undefined : reject(error)))
    const head = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"'
    const tail = '"}}'
    req.write(head)
    const chunk = "x".repeat(16 * 1024)
    for (let written = head.length + tail.length; written < size; written += chunk.length) req.write(chunk)
    req.end(tail)
  })
