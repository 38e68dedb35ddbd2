import { Duration, Effect, Option, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import type { Connection } from "./Connection.ts"
import { ApiError, ConfigError, ServerUnreachable, UnexpectedResponse } from "./errors.ts"
import { CLI_NAME } from "./name.ts"

// One place that speaks HTTP to the service: builds the request, sends the
// key when there is one, and turns every outcome into either the decoded body
// or one of the CLI's typed errors. Commands never see an HttpClientError.

const TIMEOUT = Duration.seconds(30)

export type Auth = "none" | "optional" | "required"

export interface ApiRequest {
  readonly method: "GET" | "POST" | "PATCH" | "DELETE"
  readonly path: string
  readonly auth: Auth
  readonly query?: Record<string, string | number | undefined>
  readonly body?: unknown
}

/** The body as the server sent it (for --json) and the fields this CLI reads from it. */
export interface ApiResult<A> {
  readonly raw: unknown
  readonly data: A
}

const ErrorEnvelope = Schema.Struct({
  error: Schema.Struct({ code: Schema.String, message: Schema.String, details: Schema.optional(Schema.Unknown) })
})
const decodeErrorEnvelope = Schema.decodeUnknownOption(ErrorEnvelope)

const parseJson = (text: string): Option.Option<unknown> => {
  try {
    return Option.some(JSON.parse(text))
  } catch {
    return Option.none()
  }
}

/** Node's fetch hides the useful part (ECONNREFUSED, ENOTFOUND, "bad port") in the cause chain. */
const transportReason = (error: unknown): string => {
  let current: unknown = error
  let innermost = error instanceof Error ? error.message : String(error)
  for (let depth = 0; depth < 6 && current !== null && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string") return code === "ECONNREFUSED" ? "connection refused" : code
    if (current instanceof Error && current.message.length > 0) innermost = current.message
    current = (current as { cause?: unknown }).cause
  }
  return innermost
}

const toApiError = (status: number, text: string, retryAfter: string | undefined) =>
  Option.match(Option.flatMap(parseJson(text), decodeErrorEnvelope), {
    onSome: ({ error }) => new ApiError({ status, ...error, retryAfter }),
    onNone: () =>
      new ApiError({
        status,
        retryAfter,
        code: `http_${status}`,
        message: text.trim().length > 0 ? text.trim().slice(0, 300) : "the server gave no error details"
      })
  })

/** Sends the request; the status, body text and Retry-After, or a typed error for a failed transport or an error status. */
const send = (connection: Connection, request: ApiRequest, accept: "json" | "text") =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const url = `${connection.baseUrl}${request.path}`
    if (request.auth === "required" && Option.isNone(connection.apiKey)) {
      return yield* new ConfigError({
        message: `This command needs an API key: run \`${CLI_NAME} init\` to register, or set AFF_API_KEY.`
      })
    }
    let outgoing = HttpClientRequest.make(request.method)(url)
    if (accept === "json") outgoing = HttpClientRequest.acceptJson(outgoing)
    if (request.query !== undefined) {
      const params = Object.entries(request.query).filter(
        (entry): entry is [string, string | number] => entry[1] !== undefined
      )
      outgoing = HttpClientRequest.setUrlParams(
        outgoing,
        params.map(([key, value]) => [key, String(value)] as const)
      )
    }
    if (request.auth !== "none" && Option.isSome(connection.apiKey)) {
      outgoing = HttpClientRequest.bearerToken(outgoing, Redacted.value(connection.apiKey.value))
    }
    if (request.body !== undefined) outgoing = HttpClientRequest.bodyJsonUnsafe(outgoing, request.body)

    const { retryAfter, status, text } = yield* client.execute(outgoing).pipe(
      Effect.flatMap((response) =>
        Effect.map(response.text, (text) => ({
          status: response.status,
          text,
          retryAfter: response.headers["retry-after"] as string | undefined
        }))
      ),
      Effect.timeoutOrElse({
        duration: TIMEOUT,
        orElse: () =>
          Effect.fail(
            new ServerUnreachable({ url: connection.baseUrl, reason: `no answer within ${Duration.format(TIMEOUT)}` })
          )
      }),
      Effect.catchTag("HttpClientError", (error) =>
        Effect.fail(
          error.reason._tag === "TransportError"
            ? new ServerUnreachable({ url: connection.baseUrl, reason: transportReason(error.reason.cause) })
            : new UnexpectedResponse({ url, message: error.message })
        )
      )
    )
    if (status < 200 || status >= 300) return yield* toApiError(status, text, retryAfter)
    return { url, status, text }
  })

/** The body as text (e.g. a CSV export), or one of the CLI's typed errors. */
export const callApiText = (connection: Connection, request: ApiRequest) =>
  Effect.map(send(connection, request, "text"), ({ text }) => text)

export const callApi = <S extends Schema.Top & { readonly DecodingServices: never }>(
  connection: Connection,
  request: ApiRequest,
  schema: S
) =>
  Effect.gen(function* () {
    const { status, text, url } = yield* send(connection, request, "json")
    const raw = parseJson(text)
    if (Option.isNone(raw)) {
      return yield* new UnexpectedResponse({
        url,
        message: `status ${status} without a JSON body (is ${connection.baseUrl} the affiliate service?)`
      })
    }
    const data = yield* Schema.decodeUnknownEffect(schema)(raw.value).pipe(
      Effect.mapError(
        (error) =>
          new UnexpectedResponse({ url, message: `the body does not have the expected shape: ${error.message}` })
      )
    )
    return { raw: raw.value, data } as ApiResult<S["Type"]>
  })
