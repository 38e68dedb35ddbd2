import { connect, type Socket } from "node:net"

// Raw sockets against a test service, for what fetch cannot send: malformed
// requests, drip-fed headers and bodies, idle connections, another source
// address on the loopback interface.

export interface RawAnswer {
  readonly status: number
  readonly headers: string
  readonly body: string
  /** Milliseconds from the connection to the server closing it. */
  readonly closedAfterMs: number
}

const portOf = (url: string) => Number(new URL(url).port)

/** A connected socket to `url`'s port, from `localAddress` when given (e.g. 127.0.0.2). */
export const openSocket = (url: string, localAddress?: string): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port: portOf(url), localAddress })
    socket.once("connect", () => resolve(socket))
    socket.once("error", reject)
  })

/** Everything the server writes on `socket` until it closes the connection (or `timeoutMs` passes). */
export const readUntilClosed = (socket: Socket, timeoutMs = 10_000): Promise<RawAnswer> => {
  const started = performance.now()
  return new Promise((resolve) => {
    const chunks: Array<Buffer> = []
    socket.on("data", (chunk: Buffer) => chunks.push(chunk))
    socket.on("error", () => undefined)
    const timer = setTimeout(() => socket.destroy(), timeoutMs)
    socket.once("close", () => {
      clearTimeout(timer)
      const text = Buffer.concat(chunks).toString("utf8")
      const split = text.indexOf("\r\n\r\n")
      const head = split < 0 ? text : text.slice(0, split)
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        headers: head.toLowerCase(),
        body: split < 0 ? "" : text.slice(split + 4),
        closedAfterMs: performance.now() - started
      })
    })
  })
}

/** Sends `request` raw and reads the answer until the server closes the connection. */
export const rawRequest = async (url: string, request: string | Buffer): Promise<RawAnswer> => {
  const socket = await openSocket(url)
  const answer = readUntilClosed(socket)
  socket.write(request)
  return answer
}
