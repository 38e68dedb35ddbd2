import { Context, Effect, Layer } from "effect"
import type { FeedDefinition, FeedKind } from "./FeedConfig.ts"
import type { PipelineError } from "./errors.ts"

// The registry of loaders by feed kind. The runner owns everything around a
// load (fetching the source, the unchanged-feed skip, the per-feed lock, the
// pipeline_runs record, logs, the search sync); a loader only turns the
// fetched bytes into rows of its tables. Another feature adds a kind by
// registering a loader from its own layer:
//
//   export const ConversionLoaderLayer = Layer.effectDiscard(Effect.gen(function*() {
//     const loaders = yield* FeedLoaders
//     const db = yield* Database
//     loaders.register({ kind: "conversions", load: (input) => ... })
//   }))

/** What the runner hands a loader. */
export interface LoadInput {
  readonly feed: FeedDefinition
  readonly runId: string
  /** The fetched source on local disk (the original file for local sources, a download otherwise). */
  readonly file: string
  /** True when the bytes are gzip (detected by magic number, not by name); already checked for truncation. */
  readonly gzip: boolean
  /** Call with the number of rows read so far; drives progress bars. Cheap, call it as often as you like. */
  readonly progress: (rowsRead: number) => void
}

export interface LoadResult {
  readonly rowsRead: number
  readonly rowsLoaded: number
  readonly rowsRejected: number
}

export interface FeedLoader {
  readonly kind: FeedKind
  /**
   * Validates every record (Schema), records rejected ones in rejected_rows
   * (see `recordRejections`), fails with a PipelineError when the rejected
   * share exceeds `feed.options.rejectThreshold`, and otherwise replaces the
   * feed's rows in ONE `db.transaction`, so that readers see the old or the
   * new data, never a mix, and a failure leaves the old data in place.
   */
  load(input: LoadInput): Effect.Effect<LoadResult, PipelineError>
}

export interface FeedLoadersShape {
  register(loader: FeedLoader): void
  get(kind: FeedKind): FeedLoader | undefined
  readonly kinds: () => ReadonlyArray<FeedKind>
}

export class FeedLoaders extends Context.Service<FeedLoaders, FeedLoadersShape>()("app/pipelines/FeedLoaders") {
  static readonly make = (): FeedLoadersShape => {
    const loaders = new Map<FeedKind, FeedLoader>()
    return {
      register: (loader) => {
        loaders.set(loader.kind, loader)
      },
      get: (kind) => loaders.get(kind),
      kinds: () => [...loaders.keys()]
    }
  }

  /** An empty registry; each kind's layer registers into it. */
  static readonly layer = Layer.sync(FeedLoaders, FeedLoaders.make)
}

/** Helper for loader layers: `registerLoader(Effect.gen(function*() { ...; return loader }))`. */
export const registerLoader = <E, R>(make: Effect.Effect<FeedLoader, E, R>) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const loaders = yield* FeedLoaders
      loaders.register(yield* make)
    })
  )
