import { Option } from "effect"
import http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { firstQueryBodies } from "../../../bench/support/searchLoad.ts"
import { DiscoverySearch } from "../../../discovery/DiscoverySearch.ts"
import { SearchSync } from "../../../pipelines/search/SearchSync.ts"
import { DEAL_RETRIEVED_FIELDS } from "../../../readModel/modelDocuments.ts"
import { PRODUCTS_INDEX } from "../../../readModel/indexes.ts"
import { insertProducts } from "../../support/catalogFixtures.ts"
import { discoveryCatalog } from "../../support/discoveryCatalog.ts"
import { startService, type RunningService } from "../../support/TestService.ts"

// What GET /api/search costs Meilisearch and the wire: the service reaches the
// shared test Meilisearch through a loopback pass-through that records each
// request as sent, so these tests read the very bodies Meilisearch answers.

interface Sent {
  readonly path: string
  readonly body: string
}

/** A node:http pass-through to Meilisearch that keeps every request's path and body. */
const recordingProxy = async (target: string) => {
  const sent: Array<Sent> = []
  const upstream = new URL(target)
  const server = http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const body = Buffer.concat(chunks)
      sent.push({ path: req.url ?? "", body: body.toString("utf8") })
      const forward = http.request(
        {
          hostname: upstream.hostname,
          port: upstream.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: upstream.host }
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        }
      )
      forward.on("error", () => res.destroy())
      forward.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** One GET with the raw bytes of its answer (fetch would hide a content-length that disagrees with them). */
const rawGet = (url: string) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
    http
      .get(url, (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (chunk: Buffer) => chunks.push(chunk))
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) })
        )
        res.on("error", reject)
      })
      .on("error", reject)
  })

describe("GET /api/search: the Meilisearch request it sends and the answer it writes", () => {
  let proxy: Awaited<ReturnType<typeof recordingProxy>>
  let service: RunningService
  beforeAll(async () => {
    proxy = await recordingProxy(inject("meiliUrl"))
    service = await startService({ meiliUrl: Option.some(proxy.url) })
    await service.run(insertProducts(discoveryCatalog))
    await service.run(SearchSync.use((sync) => sync.syncProducts()))
    await service.run(DiscoverySearch.use((search) => search.refreshVocabulary))
  })
  afterAll(async () => {
    await service.close()
    await proxy.close()
  })

  const uid = () => `${service.config.meiliIndexPrefix}${PRODUCTS_INDEX}`
  /** The product searches a GET /api/search sent (the vocabulary's facet query is not one). */
  const searchesFor = async (phrase: string) => {
    const from = proxy.sent.length
    const res = await rawGet(`${service.url}/api/search?q=${encodeURIComponent(phrase)}`)
    expect(res.status).toBe(200)
    const bodies = proxy.sent
      .slice(from)
      .filter((request) => request.path === `/indexes/${uid()}/search`)
      .map((request) => request.body)
      // a background refresh of the vocabulary (its facets, no hits) is not the search's
      .filter((body) => (JSON.parse(body) as { limit?: number }).limit !== 0)
    return { res, bodies }
  }

  it("asks only for the fields an answer reads: no highlighting, cropping, match positions or facets", async () => {
    const { res, bodies } = await searchesFor("noise cancelling headphones")
    expect(JSON.parse(res.bytes.toString("utf8")).count).toBeGreaterThan(0)
    expect(bodies).toHaveLength(1)
    const sent = JSON.parse(bodies[0]) as Record<string, unknown>
    expect(sent.attributesToRetrieve).toEqual(DEAL_RETRIEVED_FIELDS)
    for (const costly of [
      "attributesToHighlight",
      "attributesToCrop",
      "showMatchesPosition",
      "showRankingScore",
      "retrieveVectors",
      "facets"
    ]) {
      expect(sent).not.toHaveProperty(costly)
    }
    // the one detail read (where the words matched: relaxation.ts namesTheProduct)
    expect(sent.showRankingScoreDetails).toBe(true)
  })

  it("bench:search's direct Meilisearch query for a phrase is the request the service sends, price-word pool included", async () => {
    for (const phrase of ["noise cancelling headphones", "cheap headphones"]) {
      const { bodies } = await searchesFor(phrase)
      expect(bodies).toHaveLength(1)
      const [bench] = await firstQueryBodies(inject("meiliUrl"), inject("meiliKey"), uid(), [phrase])
      expect(JSON.parse(bench)).toEqual(JSON.parse(bodies[0]))
    }
  })

  it("states the answer's length in UTF-8 bytes: a phrase with non-ASCII text reads back whole", async () => {
    const phrase = "headphones under £200 für Käufer"
    const { res } = await searchesFor(phrase)
    expect(Number(res.headers["content-length"])).toBe(res.bytes.length)
    const answer = JSON.parse(res.bytes.toString("utf8"))
    expect(answer.name).toBe(`Search results for "${phrase}"`)
    expect(res.bytes.length).toBeGreaterThan(JSON.stringify(answer).length)
  })
})
