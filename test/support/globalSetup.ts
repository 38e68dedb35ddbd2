import { Effect, Exit, Scope } from "effect"
import { randomBytes } from "node:crypto"
import { chmodSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TestProject } from "vitest/node"
import { startMeili } from "../../infra/MeiliServer.ts"

declare module "vitest" {
  export interface ProvidedContext {
    meiliUrl: string
    meiliKey: string
    /** Superuser URL of the test PostgreSQL (postgres project only: postgresGlobalSetup.ts; use test/support/postgres.ts). */
    pgUrl: string
    /** A folder of this run for the sample-catalog snapshot (test/support/sampleSnapshot.ts), built on first use. */
    sampleSnapshotDir: string
  }
}

// Starts one real Meilisearch (temp data folder, free loopback port) for the
// whole test run. Tests that need to stop Meilisearch start their own.
export default async function setup(project: TestProject) {
  // Node's code cache on disk for every process and thread the suite starts
  // (click workers, search-sync workers, spawned services and commands: the
  // folder main.ts and the commands use too): a service's click worker
  // started on 60 ms of CPU instead of 150.
  process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), "node-compile-cache")
  const removeRunTmp = useRunTmpDir()
  const dataDir = mkdtempSync(join(tmpdir(), "meili-test-"))
  const scope = Effect.runSync(Scope.make())
  const meili = await Effect.runPromise(
    startMeili({ dataDir, masterKey: randomBytes(16).toString("hex") }).pipe(Scope.provide(scope))
  )
  project.provide("meiliUrl", meili.url)
  project.provide("meiliKey", meili.masterKey)
  const snapshotDir = mkdtempSync(join(tmpdir(), "sample-snapshot-"))
  project.provide("sampleSnapshotDir", snapshotDir)
  return async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(snapshotDir, { recursive: true, force: true })
    removeRunTmp()
  }
}

/**
 * Points TMPDIR (and so `os.tmpdir()` in every worker, service and command the
 * run starts) at a folder of this run, removed when the run ends: a test that
 * fails or times out before its own cleanup leaves no service folder, feed or
 * database behind in the machine's temp folder. Caches meant to outlive the
 * run (the compile cache above, the unpacked browser) stay in the machine's
 * temp folder, named by TEST_MACHINE_TMPDIR. Both projects run this setup in
 * one process: the first makes the folder and, at the end, removes it.
 */
const useRunTmpDir = (): (() => void) => {
  if (process.env.TEST_MACHINE_TMPDIR !== undefined) return () => {}
  process.env.TEST_MACHINE_TMPDIR = tmpdir()
  const runDir = mkdtempSync(join(tmpdir(), "affiliate-test-run-"))
  // others may pass through, as through the machine's temp folder: PostgreSQL
  // started by root runs as the postgres user (each folder inside stays 0700)
  chmodSync(runDir, 0o711)
  process.env.TMPDIR = runDir
  return () => rmSync(runDir, { recursive: true, force: true })
}
