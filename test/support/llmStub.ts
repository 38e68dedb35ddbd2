import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

// A stand-in for an OpenAI-compatible provider: POST /chat/completions on
// 127.0.0.1 (free port), answering in the chat-completions wire format. Each
// test says how it behaves next; every request it received is kept so tests
// can check the prompt and the headers.

export interface ChatRequest {
  readonly headers: IncomingMessage["headers"]
  readonly path: string
  readonly body: {
    readonly model: string
    readonly messages: ReadonlyArray<{ readonly role: string; readonly content: string }>
    readonly temperature?: number
    readonly max_tokens?: number
  }
}

export type Behaviour =
  /** A normal completion whose message content is what `write` returns for the request. */
  | { readonly kind: "answer"; readonly write: (request: ChatRequest) => string }
  /** Waits (longer than the service's timeout) before answering. */
  | { readonly kind: "slow"; readonly delayMs: number; readonly write: (request: ChatRequest) => string }
  /** A provider error, in the provider's error body format. */
  | { readonly kind: "error"; readonly status: number }
  /** A 200 whose body is not a chat completion. */
  | { readonly kind: "raw"; readonly body: string }
  /** Closes the connection without answering. */
  | { readonly kind: "hangup" }

export interface LlmStub {
  /** Base URL to configure as LLM_BASE_URL (the stub serves {base}/chat/completions). */
  readonly url: string
  readonly requests: Array<ChatRequest>
  behave(behaviour: Behaviour): void
  close(): Promise<void>
}

const completion = (model: string, content: string) => ({
  id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
  object: "chat.completion",
  created: Math.floor(Date.now() / 1000),
  model,
  choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 }
})

const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify(body))
}

export const startLlmStub = async (): Promise<LlmStub> => {
  const requests: Array<ChatRequest> = []
  let behaviour: Behaviour = { kind: "error", status: 503 }
  const timers = new Set<NodeJS.Timeout>()

  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        return sendJson(res, 404, {
          error: { message: `unknown route ${req.method} ${req.url}`, type: "invalid_request_error" }
        })
      }
      let body: ChatRequest["body"]
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
      } catch {
        return sendJson(res, 400, { error: { message: "invalid JSON body", type: "invalid_request_error" } })
      }
      const request: ChatRequest = { headers: req.headers, path: req.url, body }
      requests.push(request)
      const current = behaviour
      switch (current.kind) {
        case "answer":
          return sendJson(res, 200, completion(body.model, current.write(request)))
        case "slow": {
          const timer = setTimeout(() => {
            timers.delete(timer)
            if (!res.destroyed) sendJson(res, 200, completion(body.model, current.write(request)))
          }, current.delayMs)
          timers.add(timer)
          return
        }
        case "error":
          return sendJson(res, current.status, {
            error: { message: "The server had an error while processing your request.", type: "server_error" }
          })
        case "raw":
          res.writeHead(200, { "content-type": "application/json" })
          return res.end(current.body)
        case "hangup":
          return req.socket.destroy()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    behave: (next) => {
      behaviour = next
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer)
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
