import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import type { RunSummary } from "../../pipelines/PipelineRunner.ts"
import { formatFields, formatTable } from "../partner/Table.ts"
import { CliError, connect, type RejectedRow } from "./PipelineClient.ts"
import { serverFlag } from "./ServerFlag.ts"

// `npm run runs -- [--feed NAME] [--limit N] [--json] [--server URL]` (also
// `npm run status`): recent pipeline runs. With `--rejected RUN`: that run
// and its rejected rows, each with its line and reason. The first line (on
// stderr) says what the command read: the server, or the store itself.

const runsTable = (runs: ReadonlyArray<RunSummary>) =>
  formatTable(
    [
      { header: "run" },
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
      r.id,
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

// A feed's record is the feed's text: its tabs and control characters must
// neither break the table's columns nor drive the terminal.
const shown = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ")

const rejectedReport = (run: RunSummary, rejected: ReadonlyArray<RejectedRow>) =>
  [
    formatFields([
      ["run", run.id],
      ["feed", run.feed],
      ["status", run.status],
      ["rows", `${run.rowsRead} read, ${run.rowsLoaded} loaded, ${run.rowsRejected} rejected`]
    ]),
    "",
    rejected.length === 0
      ? "(no rejected rows)"
      : formatTable(
          [
            { header: "line", align: "right" },
            { header: "reason", maxWidth: 80 },
            { header: "raw", maxWidth: 60 }
          ],
          rejected.map((row) => [String(row.line), shown(row.reason), shown(row.raw ?? "")])
        )
  ].join("\n")

const status = Command.make(
  "runs",
  {
    feed: Flag.String("feed").pipe(Flag.withDescription("Only runs of this feed"), Flag.optional),
    limit: Flag.Int("limit").pipe(
      Flag.withDescription("How many runs (1..500), or rejected rows with --rejected (1..10000)"),
      Flag.withDefault(20)
    ),
    rejected: Flag.String("rejected").pipe(
      Flag.withDescription("Show this run (its id, the first column) and its rejected rows with line and reason"),
      Flag.optional
    ),
    json: Flag.Boolean("json").pipe(Flag.withDescription("Print the runs as JSON"), Flag.withDefault(false)),
    server: serverFlag
  },
  Effect.fn(
    function* (flags) {
      const output = yield* Effect.tryPromise({
        try: async () => {
          const max = Option.isSome(flags.rejected) ? 10_000 : 500
          if (flags.limit < 1 || flags.limit > max) throw new CliError(`--limit must be 1..${max}`)
          const client = await connect(Option.getOrUndefined(flags.server))
          process.stderr.write(`reading ${client.describe}\n`)
          try {
            if (Option.isSome(flags.rejected)) {
              const found = await client.rejected(flags.rejected.value, flags.limit)
              if (found === undefined) throw new CliError(`no run ${flags.rejected.value}`)
              return flags.json ? JSON.stringify(found, null, 2) : rejectedReport(found.run, found.rejected)
            }
            const runs = await client.runs({ feed: Option.getOrUndefined(flags.feed), limit: flags.limit })
            return flags.json ? JSON.stringify(runs, null, 2) : runs.length === 0 ? "(no runs)" : runsTable(runs)
          } finally {
            await client.close()
          }
        },
        catch: (error) =>
          error instanceof CliError ? error : new CliError(error instanceof Error ? error.message : String(error))
      })
      yield* Console.log(output)
    },
    (effect) =>
      effect.pipe(
        Effect.catch((error: CliError) =>
          Effect.gen(function* () {
            yield* Console.error(`runs: ${error.message}`)
            process.exitCode = 1
          })
        )
      )
  )
).pipe(Command.withDescription("Recent pipeline runs; --rejected RUN: a run's rejected rows with line and reason"))

status.pipe(Command.run({ version: "0.1.0" }), Effect.provide(NodeServices.layer), NodeRuntime.runMain)
