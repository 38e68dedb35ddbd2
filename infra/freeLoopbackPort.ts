import { readFileSync } from "node:fs"
import { createServer } from "node:net"

/**
 * A free loopback port for a child process to listen on (the embedded
 * Meilisearch, a service or database a test or bench starts). The port is
 * chosen here, released, then bound by the child, so something may take it
 * in between. The kernel's own choice (a listen on port 0) comes from its
 * ephemeral range, where every outgoing connection's source port comes from
 * too: thousands in a test run, where a port was once taken before the child
 * bound it and the child stopped on "address in use". So the port is drawn
 * at random below that range and checked by binding it; the kernel's choice
 * only where no such range is known or no drawn port was free.
 */
export const freeLoopbackPort = async (): Promise<number> => {
  const below = ephemeralRangeStart()
  if (below !== undefined) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const port = below - 1 - Math.floor(Math.random() * DRAWN_PORTS)
      if (await canListen(port)) return port
    }
  }
  return kernelChosenPort()
}

/** Ports drawn from: the 16,384 just below the ephemeral range (16384-32767 on Linux's default range). */
const DRAWN_PORTS = 16_384

/** The first port of Linux's ephemeral range, when it leaves room for DRAWN_PORTS unprivileged ports below it. */
const ephemeralRangeStart = (): number | undefined => {
  try {
    const start = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0])
    return Number.isInteger(start) && start - DRAWN_PORTS >= 1024 ? start : undefined
  } catch {
    return undefined
  }
}

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer()
    probe.once("error", () => resolve(false))
    probe.listen({ port, host: "127.0.0.1", exclusive: true }, () => probe.close(() => resolve(true)))
  })

const kernelChosenPort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen({ port: 0, host: "127.0.0.1", exclusive: true }, () => {
      const address = probe.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
