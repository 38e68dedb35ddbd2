import { connect, type Socket } from "node:net"

// A load of clicks whose every answer is remembered: click n carries the
// referrer `https://trail.example/{n}` (stored with the click), and
// `answeredAt[n]` is when its 302 reached us (Date.now()). Raw HTTP/1.1 over
// keep-alive sockets, one request in flight per socket, so the client stays
// cheap next to the server it loads. Loopback only.
export const TRAIL_REFERRER = "https://trail.example/"

export interface ClickTrail {
  readonly answeredAt: Array<number>
  /** Clicks sent so far (answered or not). */
  readonly sent: () => number
  /** Stops sending; resolves when every socket is closed. */
  stop(): Promise<void>
}

export const startClickTrail = (options: {
  readonly url: string
  readonly path: string
  readonly connections: number
  readonly userAgent: string
}): ClickTrail => {
  const target = new URL(options.url)
  const head = `GET ${options.path} HTTP/1.1\r\nhost: ${target.host}\r\nuser-agent: ${options.userAgent}\r\nreferer: ${TRAIL_REFERRER}`
  const answeredAt: Array<number> = []
  let next = 0
  let stopping = false
  const closed: Array<Promise<void>> = []

  const open = () => {
    let socket: Socket
    let buffer = Buffer.alloc(0)
    let inFlight = -1
    const send = () => {
      if (stopping) return socket.end()
      inFlight = next++
      socket.write(`${head}${inFlight}\r\n\r\n`)
    }
    closed.push(
      new Promise<void>((resolve) => {
        socket = connect({ host: target.hostname, port: Number(target.port), noDelay: true }, send)
        socket.on("data", (chunk) => {
          buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
          for (;;) {
            const end = buffer.indexOf("\r\n\r\n")
            if (end < 0) return
            const text = buffer.subarray(0, end).toString("latin1")
            const length = /\r\ncontent-length:\s*(\d+)/i.exec(text)?.[1]
            // Our redirect always sends a length; anything else would desynchronise the count.
            if (length === undefined) throw new Error(`response without content-length: ${text}`)
            const bodyEnd = end + 4 + Number(length)
            if (buffer.length < bodyEnd) return
            buffer = buffer.subarray(bodyEnd)
            if (text.startsWith("HTTP/1.1 302")) answeredAt[inFlight] = Date.now()
            send()
          }
        })
        socket.on("error", () => undefined)
        socket.on("close", () => resolve())
      })
    )
  }
  for (let i = 0; i < options.connections; i++) open()

  return {
    answeredAt,
    sent: () => next,
    stop: async () => {
      stopping = true
      await Promise.all(closed)
    }
  }
}

/** The click numbers in a list of stored referrers. */
export const trailNumbers = (referrers: ReadonlyArray<string | null>): Set<number> =>
  new Set(
    referrers.flatMap((r) =>
      r !== null && r.startsWith(TRAIL_REFERRER) ? [Number(r.slice(TRAIL_REFERRER.length))] : []
    )
  )
