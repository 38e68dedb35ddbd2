import { Effect, Option } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest, HttpClientResponse } from "effect/http"

// The operator commands' HTTP to a running server, through Effect's
// HttpClient (fetch underneath), for their promise-based callers.

const run = <A, E>(effect: Effect.Effect<A, E, HttpClient.HttpClient>) =>
  Effect.runPromise(
    effect.pipe(
      Effect.provideService(HttpClient.TracerDisabledWhen, () => true), // no trace headers, as with plain fetch
      Effect.provide(FetchHttpClient.layer)
    )
  )

/** Is a server answering at `url`? (GET /health, 1 s.) */
export const serverAnswers = (url: string): Promise<boolean> =>
  run(
    HttpClient.get(`${url}/health`).pipe(
      Effect.map((response) => response.status >= 200 && response.status <= 299),
      Effect.timeout(1000),
      Effect.orElseSucceed(() => false)
    )
  )

export interface AdminResponse {
  readonly ok: boolean
  readonly status: number
  readonly statusText: string
  /** The body as JSON; `undefined` when there is none or it is not JSON. */
  readonly json: unknown
}

/** One call with the admin token; any status is an answer, a transport failure or the timeout rejects. */
export const adminCall = (
  url: string,
  token: string,
  method: "GET" | "POST",
  path: string,
  options: { readonly body?: unknown; readonly timeoutMs?: number } = {}
): Promise<AdminResponse> => {
  const call = Effect.gen(function* () {
    const base = HttpClientRequest.make(method)(`${url}${path}`).pipe(
      HttpClientRequest.setHeader("authorization", `Bearer ${token}`)
    )
    const request =
      options.body === undefined
        ? base
        : HttpClientRequest.bodyText(base, JSON.stringify(options.body), "application/json")
    const response = yield* HttpClient.execute(request)
    const json: unknown = yield* response.json.pipe(Effect.orElseSucceed(() => undefined))
    return {
      ok: response.status >= 200 && response.status <= 299,
      status: response.status,
      statusText: Option.getOrUndefined(HttpClientResponse.toWeb(response))?.statusText ?? "",
      json
    }
  })
  return run(options.timeoutMs === undefined ? call : Effect.timeout(call, options.timeoutMs))
}
