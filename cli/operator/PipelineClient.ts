import { Effect, Layer, Logger, ManagedRuntime, References } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { adminTokenPath } from "../../infra/AdminTokenFile.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Database } from "../../infra/Database.ts"
import { InfraLayer } from "../../infra/Infra.ts"
import { loaders as conversionLoaders } from "../../conversions/layer.ts"
import { coreWith } from "../../pipelines/layer.ts"
import { PipelineRunner, type RunProgress, type RunSummary } from "../../pipelines/PipelineRunner.ts"
import { listRuns } from "../../pipelines/RunQueries.ts"
import { SearchSync } from "../../pipelines/search/SearchSync.ts"
import { adminCall, serverAnswers } from "./AdminHttp.ts"
import { operatorEnv } from "./OperatorEnv.ts"

// How the operator commands reach the pipelines. Only one process may open
// the DuckDB file, so when a server answers (at --url, else
// http://$HOST:$PORT) the commands go through its admin endpoints with
// ADMIN_TOKEN, or the token the server wrote to $DATA_DIR/admin-token; when
// none answers they run the pipelines in this process against DATA_DIR
// (starting the embedded Meilisearch unless MEILI_URL is set).

export class CliError extends Error {}

export interface Progress {
  readonly feed: string
  readonly phase: string
  readonly rowsRead: number
  readonly elapsedMs: number
}

export interface PipelineClient {
  readonly describe: string
  feeds(): Promise<ReadonlyArray<string>>
  /** Runs one feed to the end, reporting progress while it runs. */
  run(feed: string, onProgress: (progress: Progress) => void): Promise<RunSummary>
  runs(filter: { feed?: string | undefined; limit: number }): Promise<ReadonlyArray<RunSummary>>
  close(): Promise<void>
}

export const defaultUrl = () => operatorEnv().serverUrl
const dataDir = () => operatorEnv().dataDir

export { serverAnswers }

/** ADMIN_TOKEN, else the token the server at `url` wrote to $DATA_DIR/admin-token. */
export const tokenFor = (url: string) => {
  const fromEnv = operatorEnv().adminToken
  if (fromEnv !== undefined) return fromEnv
  const file = adminTokenPath(dataDir())
  if (existsSync(file)) return readFileSync(file, "utf8").trim()
  throw new CliError(`a server answers at ${url}: set ADMIN_TOKEN (or DATA_DIR to the server's, for ${file})`)
}

/**
 * The admin endpoints' answers as far as these commands read them (the
 * contract is api/admin/pipelines/Api.ts; each call reads only its own part).
 */
interface AdminAnswer {
  readonly error?: { readonly message?: string }
  readonly feeds: ReadonlyArray<{ readonly name: string; readonly enabled: boolean }>
  readonly started: ReadonlyArray<string>
  readonly run: RunSummary
  readonly progress: Omit<Progress, "feed"> | null
  readonly runs: ReadonlyArray<RunSummary>
}

const httpClient = (url: string): PipelineClient => {
  const token = tokenFor(url)
  const call = async (method: "GET" | "POST", path: string, body?: unknown): Promise<AdminAnswer> => {
    const response = await adminCall(url, token, method, path, { body })
    const json = response.json as AdminAnswer | undefined
    if (!response.ok)
      throw new CliError(`${method} ${path}: ${response.status} ${json?.error?.message ?? response.statusText}`)
    if (json === undefined) throw new CliError(`${method} ${path}: the server answered without a JSON body`)
    return json
  }
  return {
    describe: `server ${url}`,
    feeds: async () => (await call("GET", "/admin/feeds")).feeds.filter((f) => f.enabled).map((f) => f.name),
    run: async (feed, onProgress) => {
      const [id] = (await call("POST", "/admin/ingest", { feed, wait: false })).started
      for (;;) {
        const { run, progress } = await call("GET", `/admin/runs/${encodeURIComponent(id)}`)
        if (run.status !== "running") return run
        if (progress !== null) onProgress({ feed, ...progress })
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
    },
    runs: async ({ feed, limit }) =>
      (await call("GET", `/admin/runs?limit=${limit}${feed === undefined ? "" : `&feed=${encodeURIComponent(feed)}`}`))
        .runs,
    close: async () => {}
  }
}

const localClient = async (): Promise<PipelineClient> => {
  const config = AppConfig.layer
  // Warnings only, as JSON lines on stderr: stdout carries the summary (or --json).
  const quiet = Layer.mergeAll(
    Layer.succeed(References.MinimumLogLevel, "Warn"),
    Logger.layer([Logger.withConsoleError(Logger.formatJson)])
  )
  const layer = coreWith(conversionLoaders).pipe(
    Layer.provideMerge(SearchSync.layer),
    Layer.provideMerge(InfraLayer),
    Layer.provideMerge(config),
    Layer.provideMerge(quiet)
  )
  const runtime = ManagedRuntime.make(layer)
  const runner = await runtime.runPromise(
    Effect.gen(function* () {
      return yield* PipelineRunner
    })
  )
  return {
    describe: `this process (DATA_DIR ${dataDir()})`,
    feeds: async () => runner.feeds.filter((f) => f.enabled).map((f) => f.name),
    run: async (feed, onProgress) => {
      const ticker = setInterval(() => {
        const live: RunProgress | undefined = runner.live().find((p) => p.feed === feed)
        if (live !== undefined)
          onProgress({ feed, phase: live.phase, rowsRead: live.rowsRead, elapsedMs: Date.now() - live.startedAt })
      }, 200)
      try {
        return await runtime.runPromise(
          runner.run(feed, "manual").pipe(
            Effect.catchTags({
              UnknownFeed: (e) => Effect.die(new CliError(e.message)),
              FeedBusy: (e) => Effect.die(new CliError(e.message))
            })
          )
        )
      } finally {
        clearInterval(ticker)
      }
    },
    runs: async (filter) => runtime.runPromise(Database.use((db) => listRuns(db, filter))),
    close: () => runtime.dispose()
  }
}

/** The server when one answers, else the pipelines in this process. */
export const connect = async (url: string | undefined): Promise<PipelineClient> => {
  const target = (url ?? defaultUrl()).replace(/\/+$/, "")
  if (await serverAnswers(target)) return httpClient(target)
  if (url !== undefined) throw new CliError(`no server answers at ${target}`)
  return localClient()
}
