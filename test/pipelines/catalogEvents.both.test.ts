import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readCatalogVersion } from "../../infra/CatalogVersion.ts"
import { Database } from "../../infra/Database.ts"
import { type CatalogChanged, CatalogEvents, FollowUpFailed } from "../../infra/events/CatalogEvents.ts"
import { PipelineRunner } from "../../pipelines/PipelineRunner.ts"
import { tempDir } from "../support/TestService.ts"
import { startWithFeeds } from "./support.ts"

// The runner announces each committed load as exactly one CatalogEvents
// event (feed, kind, run, the new catalog version) and waits for its
// follow-ups: a run that did not commit announces nothing, and a failed
// follow-up fails the run as a failed search sync always did.
const network = (id: string) => ({
  id,
  name: id.toUpperCase(),
  status: "active",
  website: `https://${id}.example`,
  click_hosts: [`click.${id}.example`],
  deep_link_template: `https://click.${id}.example/?u={enc(url)}&s={sub}`,
  subid_param: "s",
  unwrap_params: ["u"],
  confidence: "M",
  successor_id: null,
  regions: ["GLOBAL"],
  account_params: {}
})

describe("catalog events from feed runs", () => {
  const files = tempDir("events-")
  const networks = join(files.dir, "networks.jsonl")
  let env: Awaited<ReturnType<typeof startWithFeeds>>
  beforeAll(async () => {
    env = await startWithFeeds([{ name: "nets", kind: "networks", format: "networks-jsonl", location: networks }])
  })
  afterAll(async () => {
    await env?.close()
    files.rm()
  })

  /** Runs `feeds` in order with a subscriber that records the load events (and answers with `answer`). */
  const runWhileListening = (
    feeds: ReadonlyArray<() => void>,
    answer: Effect.Effect<void, FollowUpFailed> = Effect.void
  ) =>
    env.service.run(
      Effect.scoped(
        Effect.gen(function* () {
          const loads: Array<CatalogChanged> = []
          yield* (yield* CatalogEvents).subscribe("test", (event) =>
            event.change._tag === "Loaded"
              ? Effect.sync(() => loads.push(event)).pipe(Effect.andThen(answer))
              : Effect.void
          )
          const runner = yield* PipelineRunner
          const runs = []
          for (const prepare of feeds) {
            prepare()
            runs.push(yield* runner.run("nets", "manual"))
          }
          const version = yield* readCatalogVersion(yield* Database)
          return { loads, runs, version }
        })
      )
    )

  it("one event per committed run; a skipped run and a failed run announce nothing", async () => {
    const write = (lines: ReadonlyArray<unknown>) => () =>
      writeFileSync(networks, lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n"))
    const { loads, runs, version } = await runWhileListening([
      write([network("awin"), network("cj")]),
      () => {}, // unchanged source: skipped
      write(["{not json", "nor this", "[]"]) // every row rejected: the load does not commit
    ])
    expect(runs.map((run) => run.status)).toEqual(["succeeded", "skipped", "failed"])
    expect(loads).toEqual([{ change: { _tag: "Loaded", feed: "nets", kind: "networks", runId: runs[0]!.id }, version }])
  })

  it("a failed follow-up fails the run, and the next run of the unchanged source loads it again", async () => {
    const refuse = Effect.fail(new FollowUpFailed({ stage: "sync", message: "index unreachable" }))
    const changed = () => writeFileSync(networks, JSON.stringify(network("tradedoubler")))
    const failed = await runWhileListening([changed], refuse)
    expect(failed.runs[0]).toMatchObject({ status: "failed", error: "sync: index unreachable" })
    expect(failed.loads).toHaveLength(1)
    // feed_state did not advance: the same source is not skipped but loaded and announced again.
    const again = await runWhileListening([() => {}])
    expect(again.runs[0]!.status).toBe("succeeded")
    expect(again.loads).toHaveLength(1)
  })

  /** Runs every feed together (runAll) with a subscriber that records the load events (and answers a BatchLoaded with `answer`). */
  const runAllWhileListening = (answer: Effect.Effect<void, FollowUpFailed> = Effect.void) =>
    env.service.run(
      Effect.scoped(
        Effect.gen(function* () {
          const events: Array<CatalogChanged["change"]> = []
          // what this process's runs announce (on PostgreSQL the follower also sees the version move: "Followed")
          yield* (yield* CatalogEvents).subscribe("test", (event) =>
            event.change._tag === "Followed"
              ? Effect.void
              : Effect.sync(() => events.push(event.change)).pipe(
                  Effect.andThen(event.change._tag === "BatchLoaded" ? answer : Effect.void)
                )
          )
          const runs = yield* (yield* PipelineRunner).runAll("manual")
          return { events, runs }
        })
      )
    )

  it("feeds run together announce their loads as batched, then one BatchLoaded whose failure fails the loaded runs", async () => {
    writeFileSync(networks, JSON.stringify(network("rakuten")))
    const refuse = Effect.fail(new FollowUpFailed({ stage: "sync", message: "index unreachable" }))
    const failed = await runAllWhileListening(refuse)
    expect(failed.events).toEqual([
      { _tag: "Loaded", feed: "nets", kind: "networks", runId: failed.runs[0]!.id, batched: true },
      { _tag: "BatchLoaded", kinds: ["networks"], runIds: [failed.runs[0]!.id] }
    ])
    expect(failed.runs[0]).toMatchObject({ status: "failed", error: "sync: index unreachable" })
    // recorded as failed, and feed_state cleared: the unchanged source is loaded (and followed up) again
    const recorded = await env.service.run(
      Effect.flatMap(Database, (db) =>
        db.query<{ status: string }>("SELECT status FROM pipeline_runs WHERE id = $1", [failed.runs[0]!.id])
      )
    )
    expect(recorded).toEqual([{ status: "failed" }])
    const again = await runAllWhileListening()
    expect(again.runs.map((run) => run.status)).toEqual(["succeeded"])
    expect(again.events.map((event) => event._tag)).toEqual(["Loaded", "BatchLoaded"])
    // nothing loaded: no BatchLoaded
    const skipped = await runAllWhileListening()
    expect(skipped.runs.map((run) => run.status)).toEqual(["skipped"])
    expect(skipped.events).toEqual([])
  })
})
