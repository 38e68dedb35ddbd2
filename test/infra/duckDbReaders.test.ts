import { spawn } from "node:child_process"
import { Effect, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import { makeDuckDbDatabase } from "../../infra/DuckDbDatabase.ts"

// A read goes to a reader connection that is not busy: a connection runs one
// statement at a time, and a long read (a search sync's COPY of a batch, a
// report) must not hold up the short ones queued behind it, such as a
// redirect's link lookup. Order of completion, not time: the quick reads all
// finish before the long one on the old round-robin too, except the one sent
// to the long read's connection.

/** Seconds of one DuckDB thread: a sum no optimiser folds away. */
const LONG_READ = "SELECT sum(hash(i)) AS s FROM range(300000000) t(i)"

describe("DuckDB reader connections", () => {
  it("sends reads past a connection busy with a long read", async () => {
    const finished = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const db = yield* makeDuckDbDatabase(":memory:", 4, 1)
          const order: Array<string> = []
          const long = yield* Effect.forkChild(
            db.query(LONG_READ).pipe(Effect.tap(() => Effect.sync(() => order.push("long"))))
          )
          // the long read is under way on its connection
          yield* Effect.sleep("50 millis")
          for (let i = 1; i <= 8; i++) {
            yield* db.query("SELECT 1 AS one")
            order.push(`quick ${i}`)
          }
          yield* Fiber.join(long)
          return order
        })
      )
    )
    expect(finished).toEqual([...Array.from({ length: 8 }, (_, i) => `quick ${i + 1}`), "long"])
  }, 120_000)

  it("stops a read still under way when the database closes, so the process can exit", async () => {
    // A process that opens the database, starts a read of many minutes, gives up waiting for it
    // (an interrupted request) and closes the database: then nothing is left for it to do.
    const script = `import { Effect, Fiber } from "effect"
      import { makeDuckDbDatabase } from "./infra/DuckDbDatabase.ts"
      await Effect.runPromise(Effect.scoped(Effect.gen(function* () {
        const db = yield* makeDuckDbDatabase(":memory:", 2, 1)
        const read = yield* Effect.forkChild(db.query("SELECT sum(hash(i)) AS s FROM range(300000000000) t(i)"))
        yield* Effect.sleep("300 millis")
        yield* Fiber.interrupt(read)
      })))
      console.log("closed")`
    const began = performance.now()
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: process.cwd() })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    const exited = await new Promise<number | null>((resolve) => {
      // the read alone would keep it alive for minutes
      const deadline = setTimeout(() => child.kill("SIGKILL"), 30_000)
      child.on("exit", (code) => {
        clearTimeout(deadline)
        resolve(code)
      })
    })
    expect(output.trim()).toBe("closed")
    expect(exited).toBe(0)
    expect(performance.now() - began).toBeLessThan(15_000)
  }, 60_000)
})
