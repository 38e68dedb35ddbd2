import { connect, createServer, type Socket } from "node:net"

/**
 * A loopback TCP relay in front of a real server (the test Meilisearch) that
 * holds each chunk a client sends for `delayMs` before passing it on: the
 * dependency stays real, only slower, so a test can keep requests in flight
 * for as long as it needs without depending on how busy the machine is.
 * Chunks keep their order (equal delays fire in order); answers pass at once.
 */
export const slowLink = async (target: string) => {
  const { hostname, port } = new URL(target)
  const sockets = new Set<Socket>()
  const link = { delayMs: 0 }
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname)
    sockets.add(client).add(upstream)
    client.on("data", (chunk) => {
      if (link.delayMs === 0) upstream.write(chunk)
      else setTimeout(() => upstream.write(chunk), link.delayMs)
    })
    upstream.pipe(client)
    const close = () => (client.destroy(), upstream.destroy())
    client.on("close", close).on("error", close)
    upstream.on("close", close).on("error", close)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
  return {
    url,
    /** Milliseconds each request chunk waits from now on (0: none). */
    set delayMs(ms: number) {
      link.delayMs = ms
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}
