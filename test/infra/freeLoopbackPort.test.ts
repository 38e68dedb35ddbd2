import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { createServer, type Server } from "node:net"
import { afterAll, expect, it } from "vitest"
import { freeLoopbackPort } from "../../infra/freeLoopbackPort.ts"
import { resolveMeiliBinary, spawnMeiliOnFreePort, stopChild } from "../../infra/MeiliServer.ts"
import { tempDir } from "../support/TestService.ts"

// A port chosen for a child is released before the child binds it. Drawn from
// the kernel's ephemeral range, an outgoing connection could take it meanwhile
// (a service in a test run stopped on "port in use"); drawn below that range,
// only a listener can, and the embedded Meilisearch then takes another port.

const held: Array<Server> = []
const folder = tempDir("meili-port-")
afterAll(async () => {
  await Promise.all(held.map((server) => new Promise((closed) => server.close(closed))))
  folder.rm()
})

/** A listener that takes the port and hangs up on whoever connects. */
const listenOn = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer((socket) => socket.destroy())
    server.once("error", reject)
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () => resolve(server))
  })

it("chooses free ports below the ephemeral range, which outgoing connections never take", async () => {
  const ephemeralStart = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0])
  const ports = await Promise.all(Array.from({ length: 20 }, () => freeLoopbackPort()))
  for (const port of ports) {
    expect(port).toBeGreaterThanOrEqual(ephemeralStart - 16_384)
    expect(port).toBeLessThan(ephemeralStart)
  }
  // free when chosen: each can be listened on now
  for (const port of new Set(ports)) held.push(await listenOn(port))
})

it("starts the embedded Meilisearch on another port when its port was taken before it bound it", async () => {
  const taken = await freeLoopbackPort()
  held.push(await listenOn(taken))
  const free = await freeLoopbackPort()
  const offered = [taken, free]
  const binary = await Effect.runPromise(resolveMeiliBinary())
  const { running, port } = await Effect.runPromise(
    spawnMeiliOnFreePort(
      { dataDir: folder.dir, masterKey: "k".repeat(32), binary },
      Effect.sync(() => offered.shift()!)
    )
  )
  try {
    expect(port).toBe(free)
    expect(offered).toEqual([])
    expect((await fetch(`${running.url}/health`)).status).toBe(200)
  } finally {
    await Effect.runPromise(stopChild(running.process))
  }
})
