import { Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { Meilisearch, type EnqueuedTaskPromise, type Task } from "meilisearch"
import { randomBytes } from "node:crypto"
import { join } from "node:path"
import { AppConfig } from "./AppConfig.ts"
import { superviseMeili } from "./MeiliSupervisor.ts"
import { Metrics } from "./Metrics.ts"
import {
  type MeiliDeadline,
  MeiliDeadlineError,
  meiliHttpClient,
  type MeiliTarget,
  meiliTarget,
  sendMeiliRequest
} from "./meiliHttpClient.ts"

export class SearchError extends Schema.TaggedError<SearchError>()("SearchError", {
  message: Schema.String,
  /** True when Meilisearch could not be reached at all (as opposed to rejecting a request). */
  unavailable: Schema.Boolean,
  cause: Schema.optional(Schema.Defect())
}) {}

const describe = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))

// Network-level failures (refused, reset, timed out) mean "unavailable";
// anything Meilisearch answered with is a request error.
const isUnavailable = (cause: unknown) => {
  const name = cause instanceof Error ? cause.name : ""
  // (client 0.62 spells its classes "Meilisearch..."; older ones "MeiliSearch...")
  return (
    cause instanceof MeiliDeadlineError ||
    /^Meili[sS]earchRequest(TimeOut)?Error$/.test(name) ||
    name === "TypeError" ||
    name === "AbortError" ||
    /fetch failed|ECONNREFUSED|ECONNRESET|timed? ?out/i.test(describe(cause))
  )
}

// The client wraps whatever its transport throws in a request error; an API
// error answer inside one is still an answer (404, 400), not an outage.
const unwrap = (cause: unknown): unknown =>
  cause instanceof Error &&
  /RequestError$/.test(cause.name) &&
  cause.cause instanceof Error &&
  /ApiError$/.test(cause.cause.name)
    ? cause.cause
    : cause

export const toSearchError = (what: string) => (raw: unknown) => {
  const cause = unwrap(raw)
  return new SearchError({ message: `${what}: ${describe(cause)}`, unavailable: isUnavailable(cause), cause })
}

export interface SearchEngineShape {
  /** The raw client, for calls not wrapped here; wrap them with `use`. */
  readonly client: Meilisearch
  readonly url: string
  /** Index uids carry MEILI_INDEX_PREFIX so several instances (or test files) share one server safely. */
  indexUid(name: string): string
  /**
   * POSTs a serialized search body to an index and returns the parsed answer
   * as it came: the hot path of every product search, so it skips the client
   * (see sendMeiliRequest) and leaves decoding to the caller, who knows which
   * fields it asked for. No complete answer within `deadline` (see
   * MeiliDeadline: a silent server fails sooner than a busy one) is an
   * "unavailable" SearchError; interruption abandons the request.
   */
  search(indexUid: string, body: string, deadline: MeiliDeadline): Effect.Effect<unknown, SearchError>
  /** The same for a serialized multi-search body (`{ queries: [...] }`). */
  multiSearch(body: string, deadline: MeiliDeadline): Effect.Effect<unknown, SearchError>
  /**
   * Enqueues documents already serialized as a UTF-8 JSON array (primary key
   * `id`) and returns the task uid: a sync builds its batches' bodies in a
   * worker thread, so the event loop neither stringifies nor re-encodes them.
   */
  addDocumentsJson(indexUid: string, body: Uint8Array): Effect.Effect<number, SearchError>
  /** Runs a client call, turning rejections into a typed SearchError. */
  use<A>(what: string, f: (client: Meilisearch) => Promise<A>): Effect.Effect<A, SearchError>
  /**
   * Enqueues a task and waits for it. A failed or cancelled task is an error
   * here, because the client resolves those normally.
   */
  task(
    what: string,
    f: (client: Meilisearch) => EnqueuedTaskPromise,
    timeoutMs?: number
  ): Effect.Effect<Task, SearchError>
  readonly healthy: Effect.Effect<boolean>
}

/** How long a client call (an enqueue of a large document batch included) may take. */
const ENQUEUE_TIMEOUT_MS = 120_000

const make = (url: string, apiKey: string, prefix: string): SearchEngineShape => {
  // Our own transport (meiliHttpClient.ts): the built-in fetch costs ~40 ms per round trip to Meilisearch.
  // The per-request timeout is generous because enqueueing a large document
  // batch on a busy machine took over 10 s in the 1M-product benchmark; latency-
  // bound callers (search endpoints) put their own, much shorter, Effect timeout on top.
  const client = new Meilisearch({ host: url, apiKey, timeout: ENQUEUE_TIMEOUT_MS, httpClient: meiliHttpClient })
  const use = <A>(what: string, f: (client: Meilisearch) => Promise<A>) =>
    Effect.tryPromise({ try: () => f(client), catch: toSearchError(what) })
  const headers = {
    "content-type": "application/json",
    ...(apiKey === "" ? {} : { authorization: `Bearer ${apiKey}` })
  }
  const base = url.endsWith("/") ? url : `${url}/`
  const searchTargets = new Map<string, MeiliTarget>()
  const searchTarget = (indexUid: string) => {
    let found = searchTargets.get(indexUid)
    if (found === undefined) {
      found = meiliTarget(new URL(`indexes/${encodeURIComponent(indexUid)}/search`, base))
      searchTargets.set(indexUid, found)
    }
    return found
  }
  const multiSearchTarget = meiliTarget(new URL("multi-search", base))
  /** One POST with its deadline as one callback (sendMeiliRequest's timer), abandoned on interruption. */
  const post = (what: string, target: MeiliTarget, body: string | Uint8Array, deadline: MeiliDeadline) =>
    Effect.callback<unknown, SearchError>((resume) => {
      const abandon = sendMeiliRequest(target, "POST", headers, body, deadline, (error, answer) =>
        resume(error === undefined ? Effect.succeed(answer) : Effect.fail(toSearchError(what)(error)))
      )
      return Effect.sync(abandon)
    })
  return {
    client,
    url,
    indexUid: (name) => `${prefix}${name}`,
    search: (indexUid, body, deadline) => post("search", searchTarget(indexUid), body, deadline),
    multiSearch: (body, deadline) => post("multi-search", multiSearchTarget, body, deadline),
    addDocumentsJson: (indexUid, body) =>
      post(
        `add documents to ${indexUid}`,
        meiliTarget(new URL(`indexes/${encodeURIComponent(indexUid)}/documents?primaryKey=id`, base)),
        body,
        ENQUEUE_TIMEOUT_MS
      ).pipe(Effect.map((answer) => (answer as { taskUid: number }).taskUid)),
    use,
    task: (what, f, timeoutMs = 600_000) =>
      use(what, (client) => f(client).waitTask({ timeout: timeoutMs, interval: 25 })).pipe(
        Effect.flatMap((task) =>
          task.status === "succeeded"
            ? Effect.succeed(task)
            : Effect.fail(
                new SearchError({
                  message: `${what}: task ${task.uid} ${task.status}: ${task.error?.message ?? "no error message"}`,
                  unavailable: false
                })
              )
        )
      ),
    healthy: Effect.tryPromise(() => client.isHealthy()).pipe(
      Effect.timeout("1 second"),
      Effect.orElseSucceed(() => false)
    )
  }
}

export class SearchEngine extends Context.Service<SearchEngine, SearchEngineShape>()("app/infra/SearchEngine") {
  /**
   * MEILI_URL (+ MEILI_MASTER_KEY) when set; otherwise the embedded server,
   * started as a supervised child process (restarted when it dies) with its
   * data under DATA_DIR and a random master key, and stopped with the
   * layer's scope. Build it after DataDirLayer (DATA_DIR locked and private).
   */
  static readonly layer = Layer.effect(
    SearchEngine,
    Effect.gen(function* () {
      const config = yield* AppConfig
      if (Option.isSome(config.meiliUrl)) {
        const key = Option.match(config.meiliMasterKey, { onNone: () => "", onSome: Redacted.value })
        return make(config.meiliUrl.value, key, config.meiliIndexPrefix)
      }
      const running = yield* superviseMeili({
        dataDir: join(config.dataDir, "meilisearch"),
        masterKey: randomBytes(24).toString("base64url"),
        metrics: yield* Metrics,
        indexingNice: config.backgroundNice,
        ...(Option.isSome(config.meiliBin) ? { binary: config.meiliBin.value } : {})
      })
      yield* Effect.logInfo("embedded Meilisearch started").pipe(
        Effect.annotateLogs({ url: running.url, pid: running.pid() })
      )
      return make(running.url, running.masterKey, config.meiliIndexPrefix)
    })
  )

  /** For tests and benchmarks that manage the server themselves. */
  static readonly layerFor = (url: string, apiKey: string, prefix = "") =>
    Layer.succeed(SearchEngine, make(url, apiKey, prefix))
}
