import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { PipelineRunnerShape, RunSummary } from "../../pipelines/PipelineRunner.ts"
import { withStartupProgress } from "../../pipelines/startupProgress.ts"

// The first start's progress on a terminal: a header, one line per finished
// run (rows, seconds, rows/s) and a closing line, on a terminal only; piped
// output (the JSON log's readers) gets nothing extra.
describe("start-up progress on a terminal", () => {
  const run = (feed: string, rowsLoaded: number, ms: number): RunSummary => ({
    id: `run-${feed}`,
    feed,
    kind: "products",
    trigger: "startup",
    status: "succeeded",
    startedAt: "2026-01-01T00:00:00.000Z",
    finishedAt: new Date(Date.parse("2026-01-01T00:00:00.000Z") + ms).toISOString(),
    rowsRead: rowsLoaded,
    rowsLoaded,
    rowsRejected: 0,
    documentsUpserted: 0,
    documentsDeleted: 0,
    error: null
  })
  const runner = { live: () => [] } as unknown as PipelineRunnerShape
  const stream = (isTTY: boolean) => {
    const lines: Array<string> = []
    return { lines, out: { isTTY, write: (text: string) => lines.push(text) } as unknown as NodeJS.WriteStream }
  }
  const runs = [run("us-electronics", 2_500, 500), run("eu-awin", 1_500, 2_000)]

  it("prints each feed's rows and rows/s on a terminal", async () => {
    const { lines, out } = stream(true)
    expect(await Effect.runPromise(withStartupProgress(runner, Effect.succeed(runs), out))).toEqual(runs)
    expect(lines[0]).toMatch(/^first start: loading every feed once/)
    expect(lines[1]).toMatch(/loaded +us-electronics +2,500 rows in 0\.5 s \(5,000 rows\/s\)/)
    expect(lines[2]).toMatch(/loaded +eu-awin +1,500 rows in 2\.0 s \(750 rows\/s\)/)
    expect(lines[3]).toMatch(/^catalog loaded and searchable in \d+\.\d s/)
    expect(lines).toHaveLength(4)
  })

  it("prints nothing when the output is not a terminal", async () => {
    const { lines, out } = stream(false)
    expect(await Effect.runPromise(withStartupProgress(runner, Effect.succeed(runs), out))).toEqual(runs)
    expect(lines).toEqual([])
  })
})
