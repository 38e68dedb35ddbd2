import { connect, createServer, type Socket } from "node:net"

/** The protocol code a CancelRequest carries where a StartupMessage has its version. */
const CANCEL_REQUEST_CODE = 80877102

export interface CancelDelayingRelay {
  /** The database URL, pointing at the relay. */
  readonly url: string
  /** How many CancelRequests the relay has passed on to PostgreSQL. */
  readonly cancelRequestsDelivered: () => number
  readonly close: () => Promise<void>
}

export interface RelayDelays {
  /** How long each CancelRequest is held back. */
  readonly cancelMs: number
  /** How long each other connection is held back before it reaches PostgreSQL (0: at once). */
  readonly connectMs?: number
}

/**
 * A loopback TCP relay in front of PostgreSQL that holds every CancelRequest
 * back for `delays.cancelMs` before passing it on. A cancel request travels on a
 * connection of its own, and how long it takes to arrive is what decides
 * which statement it hits: delaying it makes "the cancelled query finished
 * before its cancel arrived" happen every time instead of once in a while.
 * Other connections can be slowed as well (`connectMs`), to interrupt a
 * statement while its connection is still opening.
 */
export const relayDelayingCancels = async (databaseUrl: string, delays: RelayDelays): Promise<CancelDelayingRelay> => {
  const target = new URL(databaseUrl)
  const sockets = new Set<Socket>()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.once("close", () => sockets.delete(socket))
    // A peer going away mid-test is expected (a cancel connection, a terminated backend).
    socket.on("error", () => socket.destroy())
    return socket
  }
  let delivered = 0
  const server = createServer((client) => {
    track(client)
    client.once("data", (first) => {
      client.pause()
      const isCancel = first.length >= 8 && first.readInt32BE(4) === CANCEL_REQUEST_CODE
      setTimeout(
        () => {
          const upstream = track(connect(Number(target.port), target.hostname))
          upstream.once("connect", () => {
            if (isCancel) delivered++
            upstream.write(first)
            client.pipe(upstream)
            upstream.pipe(client)
            client.resume()
          })
          upstream.once("close", () => client.destroy())
          client.once("close", () => upstream.destroy())
        },
        isCancel ? delays.cancelMs : (delays.connectMs ?? 0)
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("the relay has no TCP port")
  const url = new URL(databaseUrl)
  url.hostname = "127.0.0.1"
  url.port = String(address.port)
  return {
    url: url.toString(),
    cancelRequestsDelivered: () => delivered,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}
