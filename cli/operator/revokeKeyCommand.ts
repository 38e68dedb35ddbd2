import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Argument, Command, Flag } from "effect/cli"
import { Console, Effect, Option } from "effect"
import { KEY_CACHE_TTL_MS } from "../../partners/KeyCache.ts"
import { revokeKey } from "./PartnerKeys.ts"
import { CliError } from "./PipelineClient.ts"
import { serverFlag } from "./ServerFlag.ts"

// `npm run partners:revoke -- <partner id or tag> [--reissue] [--json] [--server URL]`:
// revokes a partner's API key (a leaked key, a partner let go). The partner's
// tag, links and statistics stay; --reissue prints a new key to hand over.

const revoke = Command.make(
  "partners:revoke",
  {
    partner: Argument.String("partner").pipe(Argument.withDescription("The partner's id or tag")),
    reissue: Flag.Boolean("reissue").pipe(
      Flag.withDescription("Replace the key by a new one, printed once (else the partner has no working key)"),
      Flag.withDefault(false)
    ),
    json: Flag.Boolean("json").pipe(Flag.withDescription("Print the answer as JSON"), Flag.withDefault(false)),
    server: serverFlag
  },
  Effect.fn(
    function* (flags) {
      const result = yield* Effect.tryPromise({
        try: () => revokeKey(flags.partner, flags.reissue, Option.getOrUndefined(flags.server)),
        catch: (error) =>
          error instanceof CliError ? error : new CliError(error instanceof Error ? error.message : String(error))
      })
      const { id, tag } = result.partner
      yield* Console.log(
        flags.json
          ? JSON.stringify({ partner: result.partner, revoked: true, api_key: result.api_key }, null, 2)
          : [
              `Revoked the API key of partner ${id} (tag ${tag}) via ${result.via}.`,
              `It stops working at once there and within ${KEY_CACHE_TTL_MS / 1000} s on every other replica.`,
              ...(result.api_key === null
                ? ["The partner has no working key now (run again with --reissue to give them one)."]
                : [`New key (shown once, hand it over securely): ${result.api_key}`])
            ].join("\n")
      )
    },
    (effect) =>
      effect.pipe(
        Effect.catch((error: CliError) =>
          Effect.gen(function* () {
            yield* Console.error(`partners:revoke: ${error.message}`)
            process.exitCode = 1
          })
        )
      )
  )
).pipe(Command.withDescription("Revoke a partner's API key (operators)"))

revoke.pipe(Command.run({ version: "0.1.0" }), Effect.provide(NodeServices.layer), NodeRuntime.runMain)
