import { spawn } from "node:child_process"
import { join, resolve } from "node:path"

// Runs the partner CLI as a real child process, the way a partner runs it,
// with an environment of our choosing: no AFFILIATE_* variables leak in from
// the developer's shell and HOME points at a temp folder, so the test can
// never read or overwrite a real ~/.config/affiliate-cli/config.json.

const repo = resolve(import.meta.dirname, "..", "..")
const node = join(repo, "node_modules", ".bin", "node")

export interface CliRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export const cleanEnv = (home: string, extra: Record<string, string>): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("AFFILIATE_")) env[key] = value
  }
  return { ...env, HOME: home, NO_COLOR: "1", ...extra }
}

export const runCli = (args: ReadonlyArray<string>, env: Record<string, string>): Promise<CliRun> =>
  new Promise((resolvePromise, reject) => {
    const child = spawn(node, ["cli/partner.ts", ...args], { cwd: repo, env, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000)
    child.on("error", reject)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolvePromise({ code, stdout, stderr })
    })
  })
