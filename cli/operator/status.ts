import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { formatTable } from "../partner/Table.ts"
import { CliError, connect } from "./PipelineClient.ts"

// `npm run status -- [--feed NAME] [--limit N] [--json] [--url URL]`: recent pipeline runs.

const status = Command.make(
  "status",
  {
    feed: Flag.String("feed").pipe(Flag.withDescription("Only runs of this feed"), Flag.optional),
    limit: Flag.Int("limit").pipe(Flag.withDescription("How many runs (1..500)"), Flag.withDefault(20)),
    json: Flag.Boolean("json").pipe(Flag.withDescription("Print the runs as JSON"), Flag.withDefault(false)),
    url: Flag.String("url").pipe(Flag.withDescription("Server base URL (default http://$HOST:$PORT)"), Flag.optional)
  },
  Effect.fn(
    function* (flags) {
      const runs = yield* Effect.tryPromise({
        try: async () => {
          if (flags.limit < 1 || flags.limit > 500) throw new CliError("--limit must be 1..500")
          const client = await connect(Option.getOrUndefined(flags.url))
          try {
            return await client.runs({ feed: Option.getOrUndefined(flags.feed), limit: flags.limit })
          } finally {
            await client.close()
          }
        },
        catch: (error) =>
          error instanceof CliError ? error : new CliError(error instanceof Error ? error.message : String(error))
      })
      yield* Console.log(
        flags.json
          ? JSON.stringify(runs, null, 2)
          : formatTable(
              [
                { header: "started (UTC)" },
                { header: "feed" },
                { header: "trigger" },
                { header: "status" },
                { header: "read", align: "right" },
                { header: "loaded", align: "right" },
                { header: "rejected", align: "right" },
                { header: "error", maxWidth: 70 }
              ],
              runs.map((r) => [
                r.startedAt.slice(0, 19).replace("T", " "),
                r.feed,
                r.trigger,
                r.status,
                String(r.rowsRead),
                String(r.rowsLoaded),
                String(r.rowsRejected),
                r.error ?? ""
              ])
            )
      )
    },
    (effect) =>
      effect.pipe(
        Effect.catch((error: CliError) =>
          Effect.gen(function* () {
            yield* Console.error(`status: ${error.message}`)
            process.exitCode = 1
          })
        )
      )
  )
).pipe(Command.withDescription("Recent pipeline runs"))

status.pipe(Command.run({ version: "0.1.0" }), Effect.provide(NodeServices.layer), NodeRuntime.runMain)
