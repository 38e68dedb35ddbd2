import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger } from "effect"
import { HttpClient, HttpRouter } from "effect/http"
import { HttpApi, HttpApiBuilder } from "effect/http-api"
import type { CatalogQueries, NetworkRow, ProgramRow } from "../../catalog/CatalogQueries.ts"
import * as Catalog from "../../catalog/layer.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Metrics } from "../../infra/Metrics.ts"
import { withErrorResponses } from "../../api/ErrorResponses.ts"
import { IpRateLimitLayer } from "../../api/v1/auth/PartnerAuth.ts"
import { CatalogApi } from "../../api/v1/catalog/Api.ts"
import { CatalogHandlers } from "../../api/v1/catalog/Http.ts"
import { StorableTextLayer } from "../../api/StorableText.ts"
import { RequestValidation } from "../../api/RequestChecksApi.ts"
import { RequestValidationLayer } from "../../api/Validation.ts"
import { RateLimits } from "../../partners/RateLimits.ts"

// GET /api/v1/networks and /api/v1/programs over real HTTP, with the real
// handlers, contract, validation and error mapping, but the catalog from
// Catalog.layerTest: no DuckDB, no Meilisearch, milliseconds per test.

const network = (id: string, name: string, status = "active"): NetworkRow => ({
  id,
  name,
  status,
  website: null,
  click_hosts: [],
  subid_param: null,
  confidence: "H",
  successor_id: null,
  regions: [],
  programs: 1
})
const program = (
  id: string,
  network_id: string,
  name: string,
  domains: ReadonlyArray<string>,
  country: string | null = "GB"
): ProgramRow => ({
  id,
  number: Number(id.split(":")[1]) || 99,
  network_id,
  merchant_id: id.split(":")[1] ?? id,
  name,
  domains,
  country,
  category: null,
  commission_type: "cps",
  commission_rate: "5.00",
  commission_currency: null,
  cookie_days: 30,
  status: "active",
  deep_link_allowed: true,
  epc: null
})

const FIXTURE = {
  networks: [network("awin", "Awin"), network("cj", "CJ Affiliate"), network("old", "Oldnet", "closed")],
  programs: [
    program("awin:1", "awin", "Garden Store", ["garden.example"]),
    program("awin:2", "awin", "Brass Lamps", ["lamps.example"], "DE"),
    program("cj:9", "cj", "Another Garden", ["garden.example.co.uk"])
  ]
}

// Only the catalog group of the contract, under the service's API id, so the real handler layer fits.
const CatalogOnly = HttpApi.make("affiliate-commerce").add(CatalogApi).middleware(RequestValidation)

const serve = (catalog: Layer.Layer<CatalogQueries>) =>
  HttpRouter.serve(
    withErrorResponses(
      HttpApiBuilder.layer(CatalogOnly).pipe(
        Layer.provide(CatalogHandlers),
        Layer.provide(RequestValidationLayer),
        Layer.provide(StorableTextLayer),
        Layer.provide(IpRateLimitLayer)
      )
    ),
    { disableLogger: true, disableListenLog: true }
  ).pipe(
    Layer.provide(catalog),
    Layer.provide(RateLimits.layerSingleProcess),
    Layer.provide(Metrics.layer),
    Layer.provide(AppConfig.layerWith({ dataDir: "unused" })),
    Layer.provideMerge(NodeHttpServer.layerTest),
    Layer.provide(Logger.layer([]))
  )

const getJson = (path: string) =>
  Effect.gen(function* () {
    const response = yield* HttpClient.get(path)
    return { status: response.status, body: (yield* response.json) as any }
  })

describe("catalog handlers on Catalog.layerTest", () => {
  it.effect("lists networks by name with filters and a page", () =>
    Effect.gen(function* () {
      const all = yield* getJson("/api/v1/networks")
      expect(all.status).toBe(200)
      expect(all.body.data.map((n: NetworkRow) => n.id)).toEqual(["awin", "cj", "old"])
      expect(all.body.pagination).toEqual({ limit: 20, offset: 0, total: 3, next_offset: null })

      const active = yield* getJson("/api/v1/networks?status=active&limit=1")
      expect(active.body.data.map((n: NetworkRow) => n.id)).toEqual(["awin"])
      expect(active.body.pagination).toEqual({ limit: 1, offset: 0, total: 2, next_offset: 1 })

      expect((yield* getJson("/api/v1/networks?q=affil")).body.data.map((n: NetworkRow) => n.id)).toEqual(["cj"])
    }).pipe(Effect.provide(serve(Catalog.layerTest(FIXTURE))))
  )

  it.effect("finds programmes by domain the way the matcher does, and by network and country", () =>
    Effect.gen(function* () {
      const byDomain = yield* getJson("/api/v1/programs?domain=https://shop.garden.example/path")
      expect(byDomain.body.data.map((p: ProgramRow) => p.id)).toEqual(["awin:1"])
      const byNetwork = yield* getJson("/api/v1/programs?network=AWIN&country=de")
      expect(byNetwork.body.data.map((p: ProgramRow) => p.id)).toEqual(["awin:2"])
    }).pipe(Effect.provide(serve(Catalog.layerTest(FIXTURE))))
  )

  it.effect("a bad filter is a 400 from the contract, before any query", () =>
    Effect.gen(function* () {
      const bad = yield* getJson("/api/v1/programs?country=GBR")
      expect(bad.status).toBe(400)
      expect(bad.body.error.message).toMatch(/country must be an ISO 3166-1 alpha-2 code/)
    }).pipe(Effect.provide(serve(Catalog.layerTest(FIXTURE))))
  )

  it.effect("a lost database is a 503 storage_unavailable, never a 500", () =>
    Effect.gen(function* () {
      const down = yield* getJson("/api/v1/networks")
      expect(down.status).toBe(503)
      expect(down.body.error.code).toBe("storage_unavailable")
    }).pipe(Effect.provide(serve(Catalog.layerTest({ unavailable: true }))))
  )
})
