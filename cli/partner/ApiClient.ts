import { Duration, Effect, Option, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest, HttpClientResponse } from "effect/http"
import type { Connection } from "./Connection.ts"
import type * as Contract from "./contract.ts"
import { ApiError, ConfigError, ServerUnreachable, UnexpectedResponse, UsageError } from "./errors.ts"
import { CLI_NAME } from "./name.ts"

// One place that speaks HTTP to the service, through the client derived from
// the API contract (contract.ts): sends the key when there is one, and turns
// every outcome into either the decoded answer or one of the CLI's typed
// errors. Commands never see an HttpClientError or a SchemaError.

const TIMEOUT = Duration.seconds(30)

export type Auth = "none" | "optional" | "required"

/** How to read one endpoint's answer (contract.ts `answers`). */
export interface Answer<A> {
  readonly decode: () => (response: HttpClientResponse.HttpClientResponse) => Effect.Effect<A, unknown>
  readonly fromOlderServer?: ((body: unknown) => unknown) | undefined
}

export interface ApiCall<A> {
  readonly auth: Auth
  /** The request, through the derived client; `responseMode: "response-only"`, so every status comes back here. */
  readonly send: (
    client: Contract.PartnerClient
  ) => Effect.Effect<HttpClientResponse.HttpClientResponse, unknown, HttpClient.HttpClient>
  readonly answer: (answers: typeof Contract.answers) => Answer<A>
  /** The answer is text (a CSV), not JSON. */
  readonly text?: boolean
}

/** The body as the server sent it (for --json) and the answer decoded with the contract. */
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

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** The failures of building and sending a request, as the CLI's errors. */
const sendFailure = (connection: Connection, error: unknown) => {
  if (Schema.isSchemaError(error)) return new UsageError({ message: `cannot send this request: ${error.message}` })
  const reason = (error as { readonly reason?: { readonly _tag?: string; readonly cause?: unknown } }).reason
  if (reason?._tag === "TransportError") {
    return new ServerUnreachable({ url: connection.baseUrl, reason: transportReason(reason.cause) })
  }
  return new UnexpectedResponse({ url: connection.baseUrl, message: messageOf(error) })
}

/** The client for this connection: the key on every call that may carry one, JSON asked for unless text is. */
const clientFor = (contract: typeof Contract, connection: Connection, auth: Auth, text: boolean) =>
  Effect.flatMap(HttpClient.HttpClient, (httpClient) =>
    contract.makeClient(
      HttpClient.mapRequest(httpClient, (request) => {
        const accepting = text ? request : HttpClientRequest.acceptJson(request)
        return auth !== "none" && Option.isSome(connection.apiKey)
          ? HttpClientRequest.bearerToken(accepting, Redacted.value(connection.apiKey.value))
          : accepting
      }),
      connection.baseUrl
    )
  )

/** The contract module, loaded on the first call (it is most of a command's start-up otherwise). */
const loadContract = Effect.promise(() => import("./contract.ts"))

export const callApi = <A>(connection: Connection, call: ApiCall<A>) =>
  Effect.gen(function* () {
    if (call.auth === "required" && Option.isNone(connection.apiKey)) {
      return yield* new ConfigError({
        message: `This command needs an API key: run \`${CLI_NAME} init\` to register, or set AFF_API_KEY.`
      })
    }
    const contract = yield* loadContract
    const client = yield* clientFor(contract, connection, call.auth, call.text === true)
    const response = yield* call.send(client).pipe(
      Effect.timeoutOrElse({
        duration: TIMEOUT,
        orElse: () =>
          Effect.fail(
            new ServerUnreachable({ url: connection.baseUrl, reason: `no answer within ${Duration.format(TIMEOUT)}` })
          )
      }),
      // the derived client refuses a path parameter it cannot put in a URL ("." or "..") by throwing
      Effect.catchDefect((defect) =>
        /path parameter/.test(messageOf(defect))
          ? Effect.fail(new UsageError({ message: messageOf(defect) }))
          : Effect.die(defect)
      ),
      Effect.mapError((error) =>
        error instanceof ServerUnreachable || error instanceof UsageError ? error : sendFailure(connection, error)
      )
    )
    const url = response.request.url
    const text = yield* response.text.pipe(Effect.mapError((error) => sendFailure(connection, error)))
    if (response.status < 200 || response.status >= 300) {
      return yield* toApiError(response.status, text, response.headers["retry-after"])
    }
    return yield* readAnswer(call.answer(contract.answers), response, text, call.text === true, url, connection)
  })

/** Decodes a 2xx answer with the endpoint's schema, after filling what an older server leaves out. */
const readAnswer = <A>(
  answer: Answer<A>,
  response: HttpClientResponse.HttpClientResponse,
  text: string,
  isText: boolean,
  url: string,
  connection: Connection
) =>
  Effect.gen(function* () {
    const json = isText ? Option.none() : parseJson(text)
    if (!isText && Option.isNone(json)) {
      return yield* new UnexpectedResponse({
        url,
        message: `status ${response.status} without a JSON body (is ${connection.baseUrl} the affiliate service?)`
      })
    }
    const filled = Option.map(json, (body) => answer.fromOlderServer?.(body) ?? body)
    // the decoder reads a response: give it the filled body when there was a gap to fill
    const decoded =
      Option.isSome(filled) && Option.isSome(json) && filled.value !== json.value
        ? HttpClientResponse.fromWeb(
            response.request,
            new Response(JSON.stringify(filled.value), { status: response.status, headers: response.headers })
          )
        : response
    const data = yield* answer
      .decode()(decoded)
      .pipe(
        Effect.mapError(
          (error) =>
            new UnexpectedResponse({ url, message: `the body does not have the expected shape: ${messageOf(error)}` })
        )
      )
    return { raw: Option.getOrElse(json, () => text), data } satisfies ApiResult<A>
  })
