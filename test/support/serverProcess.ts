import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { freeLoopbackPort } from "../../infra/freeLoopbackPort.ts"

const mainFile = fileURLToPath(new URL("../../main.ts", import.meta.url))

export interface ServerProcess {
  readonly url: string
  readonly child: ChildProcess
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>
  /** Everything the process wrote to stdout/stderr so far (for failure messages). */
  readonly output: () => string
}

/**
 * `npm start` as a separate process (so it can be killed for real), on a free
 * loopback port, resolved once /health answers. `env` adds to the
 * environment: DATA_DIR, MEILI_URL and MEILI_MASTER_KEY at least.
 */
export const startServerProcess = async (env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> => {
  const port = await freeLoopbackPort()
  const child = spawn(process.execPath, [mainFile], {
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(port),
      INGEST_ON_START: "false",
      SCHEDULES_ENABLED: "false",
      LOG_LEVEL: "Warn",
      ...env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited during start-up:\n${output}`)
    const healthy = await fetch(`${url}/health`).then(
      (res) => res.ok,
      () => false
    )
    if (healthy) break
    if (Date.now() > deadline) {
      child.kill("SIGKILL")
      throw new Error(`server not healthy within ${timeoutMs} ms:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { url, child, exited, output: () => output }
}
