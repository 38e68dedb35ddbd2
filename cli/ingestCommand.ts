import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import type { RunSummary } from "../pipelines/PipelineRunner.ts"
import { formatTable } from "./partner/Table.ts"
import { CliError, connect, type Progress } from "./operator/PipelineClient.ts"
import { serverFlag } from "./operator/ServerFlag.ts"

// `npm run ingest -- [--feed NAME] [--json] [--server URL]`: runs feeds now.
// Through the running server when one answers (see PipelineClient.ts),
// in-process otherwise. A progress line on a terminal, a summary table at
// the end, JSON for machines; exit code 1 when a run failed.

const progressLine = (p: Progress) => {
  const seconds = Math.max(p.elapsedMs / 1000, 0.001)
  const rate = p.rowsRead / seconds
  return `${p.feed}  ${p.phase.padEnd(5)}  ${p.rowsRead.toLocaleString("en-US")} rows  ${Math.round(rate).toLocaleString("en-US")} rows/s  ${seconds.toFixed(1)} s`
}

export const summaryTable = (runs: ReadonlyArray<RunSummary>) =>
  formatTable(
    [
      { header: "feed" },
      { header: "status" },
      { header: "read", align: "right" },
      { header: "loaded", align: "right" },
      { header: "rejected", align: "right" },
      { header: "indexed", align: "right" },
      { header: "deleted", align: "right" },
      { header: "seconds", align: "right" },
      { header: "error", maxWidth: 80 }
    ],
    runs.map((r) => [
      r.feed,
      r.status,
      r.rowsRead.toLocaleString("en-US"),
      r.rowsLoaded.toLocaleString("en-US"),
      r.rowsRejected.toLocaleString("en-US"),
      r.documentsUpserted.toLocaleString("en-US"),
      r.documentsDeleted.toLocaleString("en-US"),
      r.finishedAt === null ? "" : ((Date.parse(r.finishedAt) - Date.parse(r.startedAt)) / 1000).toFixed(1),
      r.error ?? ""
    ])
  )

const ingest = Command.make(
  "ingest",
  {
    feed: Flag.String("feed").pipe(
      Flag.withDescription("Run only this feed (default: every enabled feed, catalog first)"),
      Flag.optional
    ),
    json: Flag.Boolean("json").pipe(Flag.withDescription("Print the run summaries as JSON"), Flag.withDefault(false)),
    server: serverFlag
  },
  Effect.fn(
    function* (flags) {
      const runs = yield* Effect.tryPromise({
        try: async () => {
          const client = await connect(Option.getOrUndefined(flags.server), { creates: true })
          const tty = process.stderr.isTTY === true && !flags.json
          process.stderr.write(`ingesting through ${client.describe}\n`)
          try {
            const feeds = Option.isSome(flags.feed) ? [flags.feed.value] : await client.feeds()
            const results: Array<RunSummary> = []
            for (const feed of feeds) {
              const run = await client.run(feed, (p) => {
                if (tty) process.stderr.write(`\r\x1b[2K${progressLine(p)}`)
              })
              if (tty) process.stderr.write("\r\x1b[2K")
              if (!flags.json)
                process.stderr.write(`${feed}: ${run.status}${run.error === null ? "" : ` (${run.error})`}\n`)
              results.push(run)
            }
            return results
          } finally {
            await client.close()
          }
        },
        catch: (error) =>
          error instanceof CliError ? error : new CliError(error instanceof Error ? error.message : String(error))
      })
      yield* Console.log(flags.json ? JSON.stringify(runs, null, 2) : summaryTable(runs))
      if (runs.some((r) => r.status === "failed" || r.status === "interrupted")) process.exitCode = 1
    },
    (effect) =>
      effect.pipe(
        Effect.catch((error: CliError) =>
          Effect.gen(function* () {
            yield* Console.error(`ingest: ${error.message}`)
            process.exitCode = 1
          })
        )
      )
  )
).pipe(Command.withDescription("Run feeds now: through the running server when one answers, in-process otherwise"))

ingest.pipe(Command.run({ version: "0.1.0" }), Effect.provide(NodeServices.layer), NodeRuntime.runMain)
