import { Effect, Layer } from "effect"
import { serveOn } from "./api/Server.ts"
import { AiServices } from "./api/v1/ai/AiTools.ts"
import { LinkServices } from "./api/v1/LinkServices.ts"
import { ConversionServices } from "./conversions/ConversionServices.ts"
import { AppConfig } from "./infra/AppConfig.ts"
import { InfraLayer } from "./infra/Infra.ts"
import { DiscoverySearch } from "./discovery/DiscoverySearch.ts"
import { CatalogQueries } from "./catalog/CatalogQueries.ts"
import { SearchSync } from "./pipelines/search/SearchSync.ts"
import { Pipelines } from "./pipelines/layer.ts"

// The running service as one layer, given its configuration: main.ts feeds it
// the environment, tests feed it temp folders and free ports. Composition
// only; each piece lives in its feature folder.
const Http = Layer.unwrap(
  Effect.gen(function*() {
    const config = yield* AppConfig
    return serveOn(config.port, config.host)
  })
)

// Feature services over the infrastructure; each feature adds its layer here.
const Features = Layer.mergeAll(SearchSync.layer, DiscoverySearch.layer, CatalogQueries.layer, LinkServices, ConversionServices)

export const makeService = <E, R>(config: Layer.Layer<AppConfig, E, R>) =>
  Http.pipe(
    Layer.provideMerge(Pipelines),
    Layer.provideMerge(AiServices),
    Layer.provideMerge(Features),
    Layer.provideMerge(InfraLayer),
    Layer.provideMerge(config)
  )
