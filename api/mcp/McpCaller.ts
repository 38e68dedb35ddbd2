import { Context, Effect } from "effect"
import { McpServer } from "effect/ai"
import { API_KEY_PATTERN, type Partner, Partners } from "../../partners/Partners.ts"
import { toolFailure } from "./toolErrors.ts"
import type { ToolFailure } from "./toolDefinitions.ts"
import { SERVICE_TAGS } from "../../domain/links/serviceTags.ts"

/** The attribution tag of tracked links handed out over MCP without a partner key. */
export const MCP_DEFAULT_TAG = SERVICE_TAGS.mcp

/**
 * Who is calling a tool: the partner of the request's `Authorization: Bearer`
 * key, anonymous, or a key we refused. A refused key does not fail the MCP
 * request itself: tools that hand out links or stats answer with the JSON
 * API's 401 body as a tool error, so the agent can tell its user.
 */
export class McpCaller extends Context.Service<
  McpCaller,
  {
    readonly partner: Partner | undefined
    readonly refused: ToolFailure | undefined
  }
>()("app/api/mcp/McpCaller") {}

const refused = (message: string) => ({ partner: undefined, refused: toolFailure("unauthorized", message) })

/** The partner (or a refusal) for an Authorization header value, worded as /api/v1 words it. */
export const callerFor = (partners: Partners["Service"], header: string | undefined) =>
  Effect.gen(function* () {
    if (header === undefined || header.trim() === "") return { partner: undefined, refused: undefined }
    const key = /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1]
    if (key === undefined || !API_KEY_PATTERN.test(key)) {
      return refused("malformed Authorization header: expected 'Bearer ak_...' with the key from registration")
    }
    const partner = yield* partners.authenticate(key).pipe(Effect.option)
    if (partner._tag === "None") {
      return {
        partner: undefined,
        refused: toolFailure("auth_unavailable", "the partner store is not reachable; retry shortly")
      }
    }
    return partner.value === undefined ? refused("unknown API key") : { partner: partner.value, refused: undefined }
  })

/** Resolves the caller of every /mcp tool call from its HTTP Authorization header. */
export const CallerFromAuthorization = McpServer.middleware<{ provides: McpCaller }>()(
  Effect.gen(function* () {
    const partners = yield* Partners
    return (effect, { headers }) =>
      Effect.flatMap(callerFor(partners, headers["authorization"]), (caller) =>
        Effect.provideService(effect, McpCaller, caller)
      )
  })
)

/** The partner, or the tool failure a tool that needs a key answers with. */
export const requirePartner = Effect.gen(function* () {
  const caller = yield* McpCaller
  if (caller.refused !== undefined) return yield* Effect.fail(caller.refused)
  if (caller.partner === undefined) {
    return yield* Effect.fail(toolFailure("unauthorized", "an API key is required: Authorization: Bearer <api key>"))
  }
  return caller.partner
})

/** The tag tracked links carry for this caller (a refused key is an error, never silently the default tag). */
export const callerTag = Effect.gen(function* () {
  const caller = yield* McpCaller
  if (caller.refused !== undefined) return yield* Effect.fail(caller.refused)
  return caller.partner?.tag ?? MCP_DEFAULT_TAG
})
