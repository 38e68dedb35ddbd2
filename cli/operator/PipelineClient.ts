import { Effect, Layer, Logger, ManagedRuntime, References } from "effect"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Database } from "../../infra/Database.ts"
import { InfraLayer } from "../../infra/Infra.ts"
import { loaders as conversionLoaders } from "../../conversions/layer.ts"
import { coreWith } from "../../pipelines/layer.ts"
import { PipelineRunner, type RunProgress, type RunSummary } from "../../pipelines/PipelineRunner.ts"
import { getRun, listRuns, rejectedRows } from "../../pipelines/RunQueries.ts"
import { SearchSync } from "../../pipelines/search/SearchSync.ts"
import { adminCall, serverAnswers } from "./AdminHttp.ts"
import { AdminTokenMissing, findAdminToken } from "./AdminToken.ts"
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

export interface RejectedRow {
  readonly line: number
  readonly reason: string
  readonly raw: string | null
}

export interface PipelineClient {
  /** What the command talks to: the server (and where its token came from), or the store in this process. */
  readonly describe: string
  feeds(): Promise<ReadonlyArray<string>>
  /** Runs one feed to the end, reporting progress while it runs. */
  run(feed: string, onProgress: (progress: Progress) => void): Promise<RunSummary>
  runs(filter: { feed?: string | undefined; limit: number }): Promise<ReadonlyArray<RunSummary>>
  /** One run with up to `limit` of its rejected rows; undefined when there is no such run. */
  rejected(runId: string, limit: number): Promise<{ run: RunSummary; rejected: ReadonlyArray<RejectedRow> } | undefined>
  close(): Promise<void>
}

export const defaultUrl = () => operatorEnv().serverUrl
const dataDir = () => operatorEnv().dataDir

export { serverAnswers }

/** ADMIN_TOKEN, else the token the server at `url` wrote to $DATA_DIR/admin-token. */
export const tokenFor = (url: string) => {
  try {
    return findAdminToken(url).token
  } catch (error) {
    throw error instanceof AdminTokenMissing ? new CliError(error.message) : error
  }
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
  readonly rejected: ReadonlyArray<RejectedRow>
}

const httpClient = (url: string): PipelineClient => {
  let found
  try {
    found = findAdminToken(url)
  } catch (error) {
    throw error instanceof AdminTokenMissing ? new CliError(error.message) : error
  }
  const { token, from } = found
  const call = async (method: "GET" | "POST", path: string, body?: unknown): Promise<AdminAnswer | undefined> => {
    const response = await adminCall(url, token, method, path, { body })
    const json = response.json as AdminAnswer | undefined
    if (response.status === 404 && path.startsWith("/admin/runs/")) return undefined
    if (!response.ok)
      throw new CliError(`${method} ${path}: ${response.status} ${json?.error?.message ?? response.statusText}`)
    if (json === undefined) throw new CliError(`${method} ${path}: the server answered without a JSON body`)
    return json
  }
  const answer = async (method: "GET" | "POST", path: string, body?: unknown): Promise<AdminAnswer> => {
    const json = await call(method, path, body)
    if (json === undefined) throw new CliError(`${method} ${path}: 404 no such run`)
    return json
  }
  return {
    describe: `server ${url} (admin token from ${from})`,
    feeds: async () => (await answer("GET", "/admin/feeds")).feeds.filter((f) => f.enabled).map((f) => f.name),
    run: async (feed, onProgress) => {
      const [id] = (await answer("POST", "/admin/ingest", { feed, wait: false })).started
      for (;;) {
        const { run, progress } = await answer("GET", `/admin/runs/${encodeURIComponent(id)}`)
        if (run.status !== "running") return run
        if (progress !== null) onProgress({ feed, ...progress })
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
    },
    runs: async ({ feed, limit }) =>
      (
        await answer(
          "GET",
          `/admin/runs?limit=${limit}${feed === undefined ? "" : `&feed=${encodeURIComponent(feed)}`}`
        )
      ).runs,
    rejected: async (runId, limit) => {
      const json = await call("GET", `/admin/runs/${encodeURIComponent(runId)}?rejected=${limit}`)
      return json === undefined ? undefined : { run: json.run, rejected: json.rejected }
    },
    close: async () => {}
  }
}

const localClient = async (store: string): Promise<PipelineClient> => {
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
    describe: `this process, ${store}`,
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
    rejected: async (runId, limit) =>
      runtime.runPromise(
        Database.use((db) =>
          Effect.gen(function* () {
            const run = yield* getRun(db, runId)
            return run === undefined ? undefined : { run, rejected: yield* rejectedRows(db, runId, limit) }
          })
        )
      ),
    close: () => runtime.dispose()
  }
}

/**
 * The server when one answers, else the pipelines in this process. Reading
 * commands (`creates: false`) refuse to open a DATA_DIR without a catalog:
 * run beside a server on another PORT/DATA_DIR they would otherwise make an
 * empty catalog and answer "(none)", as if the server had nothing.
 */
export const connect = async (
  url: string | undefined,
  options: { readonly creates: boolean } = { creates: false }
): Promise<PipelineClient> => {
  const target = (url ?? defaultUrl()).replace(/\/+$/, "")
  if (await serverAnswers(target)) return httpClient(target)
  if (url !== undefined) throw new CliError(`no server answers at ${target}`)
  const { databaseUrl } = operatorEnv()
  if (databaseUrl !== undefined) return localClient("PostgreSQL (DATABASE_URL)")
  const file = join(dataDir(), "catalog.duckdb")
  if (existsSync(file)) return localClient(`DATA_DIR ${dataDir()}`)
  if (!options.creates)
    throw new CliError(
      `no server answers at ${target} and DATA_DIR ${dataDir()} holds no catalog (${file}): ` +
        "start the server, or set PORT (or --server) and DATA_DIR to the server's"
    )
  return localClient(`DATA_DIR ${dataDir()} (no catalog there yet: this run creates one)`)
}
