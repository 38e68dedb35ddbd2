import { Context, Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import type { Draft } from "../../domain/copy/assemble.ts"
import type { CopyFacts, CopyType, Tone } from "../../domain/copy/facts.ts"
import { checkDraft, parseDraft, promptFor } from "../../domain/copy/llmDraft.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { FALLBACK_REASONS } from "./fallbackReasons.ts"

// The optional LLM generator: an OpenAI-compatible chat-completions endpoint
// (LLM_BASE_URL). Every way it can go wrong becomes an LlmFailure with a
// reason the response reports as `fallback.reason`; the caller then uses the
// template generator. The API key goes in the Authorization header only and
// is never logged (it stays Redacted everywhere else).

export type FallbackReason = (typeof FALLBACK_REASONS)[number]

export class LlmFailure extends Schema.TaggedError<LlmFailure>()("LlmFailure", {
  reason: Schema.Literals(FALLBACK_REASONS),
  message: Schema.String
}) {}

const MAX_TOKENS: Record<CopyType, number> = { social: 200, deal_alert: 250, email: 900, blog: 1_500 }
const TEMPERATURE = 0.8

const ChatCompletion = Schema.Struct({
  choices: Schema.NonEmptyArray(Schema.Struct({ message: Schema.Struct({ content: Schema.String }) }))
})
const decodeCompletion = Schema.decodeUnknownOption(ChatCompletion)

export class CopyLlm extends Context.Service<
  CopyLlm,
  {
    /** false when LLM_BASE_URL is not set: the template generator is the default, not a fallback. */
    readonly enabled: boolean
    write(facts: CopyFacts, type: CopyType, tone: Tone): Effect.Effect<Draft, LlmFailure>
  }
>()("app/ai/content/CopyLlm") {
  static readonly layer = Layer.effect(
    CopyLlm,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const client = yield* HttpClient.HttpClient
      if (Option.isNone(config.llmBaseUrl)) {
        return CopyLlm.of({
          enabled: false,
          write: () => Effect.fail(new LlmFailure({ reason: "unreachable", message: "no LLM configured" }))
        })
      }
      const endpoint = `${config.llmBaseUrl.value}/chat/completions`
      const timeout = Duration.millis(config.llmTimeoutMs)
      const fail = (reason: FallbackReason, message: string) => Effect.fail(new LlmFailure({ reason, message }))

      const complete = (type: CopyType, body: unknown) => {
        let request = HttpClientRequest.post(endpoint).pipe(
          HttpClientRequest.acceptJson,
          HttpClientRequest.bodyJsonUnsafe(body)
        )
        if (Option.isSome(config.llmApiKey))
          request = HttpClientRequest.bearerToken(request, Redacted.value(config.llmApiKey.value))
        return client.execute(request).pipe(
          Effect.flatMap((response) => Effect.map(response.text, (text) => ({ status: response.status, text }))),
          Effect.timeoutOrElse({
            duration: timeout,
            orElse: () => fail("timeout", `no answer within ${config.llmTimeoutMs} ms`)
          }),
          Effect.catchTag("HttpClientError", (error) =>
            fail(
              "unreachable",
              error.reason._tag === "TransportError" ? "the LLM endpoint could not be reached" : error.message
            )
          ),
          Effect.flatMap(({ status, text }) => {
            if (status < 200 || status >= 300) return fail("http_error", `the LLM endpoint answered ${status}`)
            let json: unknown
            try {
              json = JSON.parse(text)
            } catch {
              return fail("malformed_response", "the LLM answer is not JSON")
            }
            return Option.match(decodeCompletion(json), {
              onNone: () => fail("malformed_response", "the LLM answer has no choices[0].message.content"),
              onSome: (completion) => Effect.succeed(completion.choices[0].message.content)
            })
          }),
          Effect.withSpan("CopyLlm.complete", { attributes: { type } })
        )
      }

      const write = Effect.fn("CopyLlm.write")(function* (facts: CopyFacts, type: CopyType, tone: Tone) {
        const content = yield* complete(type, {
          model: config.llmModel,
          messages: promptFor(facts, type, tone),
          temperature: TEMPERATURE,
          max_tokens: MAX_TOKENS[type]
        })
        const draft = parseDraft(content)
        if (draft === undefined)
          return yield* fail("invalid_output", "the copy is not the JSON object asked for (text, call_to_action, ...)")
        const problem = checkDraft(type, draft, facts)
        if (problem !== undefined) return yield* fail(problem.problem, problem.detail)
        return draft
      })

      return CopyLlm.of({ enabled: true, write })
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))
}
