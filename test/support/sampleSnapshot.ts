import { Clock, Option, Redacted } from "effect"
import { Meilisearch } from "meilisearch"
import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, inject, vi } from "vitest"
import { DiscoverySearch } from "../../discovery/DiscoverySearch.ts"
import type { AppConfigShape } from "../../infra/AppConfig.ts"
import { PipelineRunner } from "../../pipelines/PipelineRunner.ts"
import { referenceClock } from "../../scripts/lib/referenceClock.ts"
import { AS_OF } from "../../scripts/products/product.ts"
import { databaseName, testStore } from "./postgres.ts"
import { startService, type RunningService } from "./TestService.ts"

// Ingesting the shipped sample catalog (every feed, the search sync) costs
// 10-15 s on a quiet 2-core machine and far more under load, and a dozen test
// files only serve it. So it is ingested once per test run and store, by the
// first test file that asks, and kept: the DATA_DIR the ingest left (copied
// into each service's own), in the postgres project the database (copied with
// CREATE DATABASE ... TEMPLATE), and the Meilisearch indexes, which are not
// copied but shared, read-only: the services get a key that may only read
// indexes of the snapshot's prefix, so one that tried to write to them (a
// sync) fails loudly instead of changing what other files read.
// test/support/sampleService.ts starts services from it.

export interface SampleSnapshot {
  /** DATA_DIR after the ingest, with the service stopped. */
  readonly dataDir: string
  /** postgres project: the database after the ingest, a template nobody connects to. */
  readonly databaseTemplate?: string
  /** Index prefix of the snapshot's Meilisearch indexes. */
  readonly indexPrefix: string
  /** A Meilisearch key that may only read the indexes of `indexPrefix`. */
  readonly readOnlyKey: string
  /**
   * The services' calendar (epoch ms) when the ingest ended: a service
   * started from the snapshot goes on from there, as one that has just
   * ingested does, never reading a time before the rows were written.
   */
  readonly ingestedAt: number
}

const A_YEAR_MS = 365 * 86_400_000

/** Every Meilisearch action a service needs to serve; none that writes. */
const READ_ACTIONS = ["search", "documents.get", "indexes.get", "settings.get", "stats.get", "tasks.get", "version"]

/**
 * A service over the shipped sample catalog (data/samples), ingested through
 * the real pipelines, with the search vocabulary refreshed so intent parsing
 * knows the catalog's categories and brands. Price history may be skipped
 * (unchanged); any other failed run fails the suite. The service's calendar
 * starts at the instant the samples describe (AS_OF), so sale windows and
 * price history read the same whatever day the suite runs.
 */
const ingestSampleCatalog = async (overrides: Partial<AppConfigShape> = {}): Promise<RunningService> => {
  const service = await startService(overrides, { clock: referenceClock(AS_OF) })
  const runs = await service.run(PipelineRunner.use((runner) => runner.runAll("manual")))
  const failed = runs.filter(
    (run) => (run.status === "failed" || run.status === "interrupted") && run.kind !== "price_history"
  )
  expect(failed, JSON.stringify(failed)).toEqual([])
  await service.run(DiscoverySearch.use((search) => search.refreshVocabulary))
  return service
}

/**
 * `f` with the machine's own calendar (the process's Date) a year ahead, while
 * a service's Clock reads what it was given: code that read the wall clock
 * instead of the Clock would age every sale window and price history by a
 * year, and the judged search set derived from the snapshot would no longer
 * be the one derived on the real calendar (test/scripts/judgements.test.ts).
 */
const aYearAhead = async <A>(f: () => Promise<A>): Promise<A> => {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + A_YEAR_MS, shouldAdvanceTime: true })
  try {
    return await f()
  } finally {
    vi.useRealTimers()
  }
}

const build = async (folder: string): Promise<SampleSnapshot> => {
  const indexPrefix = `snap${randomBytes(4).toString("hex")}_`
  const dataDir = join(folder, "data")
  // The ingest writes straight into the snapshot's folder; closing the service checkpoints DuckDB.
  const { ingestedAt, databaseUrl } = await aYearAhead(async () => {
    const service = await ingestSampleCatalog({ dataDir, meiliIndexPrefix: indexPrefix })
    const ingested = { ingestedAt: await service.run(Clock.currentTimeMillis), databaseUrl: service.config.databaseUrl }
    // closed while the calendar still reads as when it started
    await service.close()
    return ingested
  })
  const master = new Meilisearch({ host: inject("meiliUrl"), apiKey: inject("meiliKey") })
  const key = await master.createKey({ actions: READ_ACTIONS, indexes: [`${indexPrefix}*`], expiresAt: null })
  return {
    dataDir,
    indexPrefix,
    readOnlyKey: key.key,
    ingestedAt,
    ...(Option.isSome(databaseUrl) ? { databaseTemplate: databaseName(Redacted.value(databaseUrl.value)) } : {})
  }
}

const WAIT_MS = 110_000

/**
 * The sample snapshot of this run and store, built by the first caller (an
 * exclusive mkdir elects it across the run's worker processes); the others
 * wait for its manifest, or for the reason it failed.
 */
export const sampleSnapshot = async (): Promise<SampleSnapshot> => {
  const folder = join(inject("sampleSnapshotDir"), testStore())
  const manifest = join(folder, "snapshot.json")
  const failure = join(folder, "failed.txt")
  mkdirSync(folder, { recursive: true })
  let builder = true
  try {
    mkdirSync(join(folder, "data"))
  } catch {
    builder = false
  }
  if (builder) {
    try {
      const snapshot = await build(folder)
      writeFileSync(`${manifest}.tmp`, JSON.stringify(snapshot))
      renameSync(`${manifest}.tmp`, manifest)
      return snapshot
    } catch (error) {
      writeFileSync(failure, error instanceof Error ? (error.stack ?? error.message) : String(error))
      throw error
    }
  }
  const deadline = Date.now() + WAIT_MS
  while (!existsSync(manifest)) {
    if (existsSync(failure)) throw new Error(`the sample snapshot failed to build:\n${readFileSync(failure, "utf8")}`)
    if (Date.now() > deadline) throw new Error(`the sample snapshot was not built within ${WAIT_MS / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return JSON.parse(readFileSync(manifest, "utf8")) as SampleSnapshot
}
