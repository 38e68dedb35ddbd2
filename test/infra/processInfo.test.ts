import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { processCpuTicks, processWantsToRun } from "../../infra/ProcessInfo.ts"

// What a search's deadline reads of the embedded Meilisearch's process
// (infra/meiliHttpClient.ts): its CPU time, and whether a thread of it is
// runnable or waits for the disk.

const proc = mkdtempSync(join(tmpdir(), "proc-"))
afterAll(() => rmSync(proc, { recursive: true, force: true }))

/** A /proc entry of `pid` whose threads are in `states`; the command name holds ") R (" to try the parse. */
const fakeProcess = (pid: number, states: ReadonlyArray<string>) => {
  states.forEach((state, i) => {
    const thread = join(proc, String(pid), "task", String(pid + i))
    mkdirSync(thread, { recursive: true })
    writeFileSync(join(thread, "stat"), `${pid + i} (odd) R (name) ${state} 1 ${"7 ".repeat(40)}\n`)
  })
}

describe("a process's signs of life", () => {
  it("this process, computing: CPU time read and growing, and a thread of it runnable", () => {
    const before = processCpuTicks(process.pid)!
    const until = performance.now() + 60
    while (performance.now() < until);
    expect(processCpuTicks(process.pid)!).toBeGreaterThan(before)
    expect(processWantsToRun(process.pid)).toBe(true)
  })

  it("a thread runnable (R) or waiting for the disk (D) wants to run; asleep (S) or stopped (T) it does not", () => {
    fakeProcess(101, ["S", "S", "R"])
    fakeProcess(201, ["S", "D"])
    fakeProcess(301, ["S", "T", "S"])
    expect(processWantsToRun(101, proc)).toBe(true)
    expect(processWantsToRun(201, proc)).toBe(true)
    expect(processWantsToRun(301, proc)).toBe(false)
  })

  it("a process that is not there: no CPU time, nothing to run", () => {
    expect(processCpuTicks(2 ** 30)).toBeUndefined()
    expect(processWantsToRun(2 ** 30)).toBe(false)
    expect(processWantsToRun(401, proc)).toBe(false)
  })
})
