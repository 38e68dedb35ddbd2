import { HttpApi, HttpApiClient } from "effect/http-api"
import type { HttpClient } from "effect/http"
import { DiscoveryApi } from "../../api/discovery/Api.ts"
import { CatalogApi } from "../../api/v1/catalog/Api.ts"
import { LinksApi } from "../../api/v1/links/Api.ts"
import { PartnersApi } from "../../api/v1/partners/Api.ts"
import { linkItem, linkPage, matchAnswer } from "./olderServers.ts"

// The part of the API contract `aff` calls, and its client, derived with
// HttpApiClient: paths, methods, query strings and bodies come from the
// endpoint declarations, and every answer is decoded with the endpoint's
// success schema. Loaded by ApiClient.ts on a command's first call, so
// `aff --help` and `aff --version` do not pay for it.

/**
 * The server validates every request and its 400 names the field (exit 1 with
 * the server's words); the client sends what it was given instead of refusing
 * it with a message of its own.
 */
const SERVER_VALIDATES = { disableChecks: true } as const

export const PartnerCliApi = HttpApi.make("aff")
  .add(PartnersApi)
  .add(LinksApi)
  .add(CatalogApi)
  .add(DiscoveryApi)
  .annotate(HttpApi.ParamsParseOptions, SERVER_VALIDATES)
  .annotate(HttpApi.QueryParseOptions, SERVER_VALIDATES)
  .annotate(HttpApi.PayloadParseOptions, SERVER_VALIDATES)

export const makeClient = (httpClient: HttpClient.HttpClient, baseUrl: string) =>
  HttpApiClient.makeWith(PartnerCliApi, { httpClient, baseUrl })

export type PartnerClient = HttpApiClient.ForApi<typeof PartnerCliApi>

/** Built on first use: a command reads one or two kinds of answer. */
const lazy = <A>(make: () => A): (() => A) => {
  let value: A | undefined
  return () => (value ??= make())
}

/**
 * How `aff` reads each answer it uses: the endpoint's own decoder, after the
 * gaps an older server leaves are filled (olderServers.ts).
 */
export const answers = {
  register: {
    decode: lazy(() => HttpApiClient.decodeResponse(PartnerCliApi, { group: "partners", endpoint: "register" }))
  },
  rotateKey: {
    decode: lazy(() => HttpApiClient.decodeResponse(PartnerCliApi, { group: "partners", endpoint: "rotateKey" }))
  },
  stats: { decode: lazy(() => HttpApiClient.decodeResponse(PartnerCliApi, { group: "partners", endpoint: "me" })) },
  exportCsv: {
    decode: lazy(() => HttpApiClient.decodeResponse(PartnerCliApi, { group: "partners", endpoint: "export" }))
  },
  match: {
    decode: lazy(() => HttpApiClient.decodeResponse(PartnerCliApi, { group: "links", endpoint: "match" })),
    fromOlderServer: matchAnswer
  },
  links: {
    decode: lazy(() => HttpApiClient.decodeResponse(PartnerCliApi, { group: "links", endpoint: "list" })),
    fromOlderServer: linkPage
  },
  editedLink: {
    decode: lazy(() => HttpApiClient.decodeResponse(PartnerCliApi, { group: "links", endpoint: "edit" })),
    fromOlderServer: linkItem
  },
  deletedLink: {
    decode: lazy(() => HttpApiClient.decodeResponse(PartnerCliApi, { group: "links", endpoint: "remove" }))
  },
  networks: {
    decode: lazy(() => HttpApiClient.decodeResponse(PartnerCliApi, { group: "catalog", endpoint: "networks" }))
  },
  programs: {
    decode: lazy(() => HttpApiClient.decodeResponse(PartnerCliApi, { group: "catalog", endpoint: "programs" }))
  },
  search: {
    decode: lazy(() => HttpApiClient.decodeResponse(PartnerCliApi, { group: "discovery", endpoint: "search" }))
  }
}
