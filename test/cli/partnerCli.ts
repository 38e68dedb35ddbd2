import { spawn } from "node:child_process"
import { join, resolve } from "node:path"

// Runs the partner CLI (`aff`) as a real child process, the way a partner
// runs it, with an environment of our choosing: no AFF_* or XDG_CONFIG_HOME
// leaks in from the developer's shell and HOME points at a temp folder, so a
// test can never read or overwrite a real ~/.config/aff/config.json.

const repo = resolve(import.meta.dirname, "..", "..")
const node = join(repo, "node_modules", ".bin", "node")
const entry = "cli/partner.ts"
const KILL_AFTER_MS = 30_000

export interface CliRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export const cleanEnv = (home: string, extra: Record<string, string>): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("AFF_") && key !== "XDG_CONFIG_HOME") env[key] = value
  }
  return { ...env, HOME: home, NO_COLOR: "1", ...extra }
}

export const runCli = (args: ReadonlyArray<string>, env: Record<string, string>): Promise<CliRun> =>
  new Promise((resolvePromise, reject) => {
    const child = spawn(node, [entry, ...args], { cwd: repo, env, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    const timer = setTimeout(() => child.kill("SIGKILL"), KILL_AFTER_MS)
    child.on("error", reject)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolvePromise({ code, stdout, stderr })
    })
  })

const shellQuote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`

/**
 * Runs the CLI in a pseudo-terminal (util-linux `script`), answering each
 * prompt when its text appears: the keystrokes a person would type. Returns
 * everything the terminal showed (prompts, echo, output) as `stdout`.
 */
export const runCliInTerminal = (
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  answers: ReadonlyArray<readonly [prompt: string, typed: string]>
): Promise<CliRun> =>
  new Promise((resolvePromise, reject) => {
    const command = [node, entry, ...args].map(shellQuote).join(" ")
    // -e: exit with the child's code; -f: flush as it comes; /dev/null: no typescript file
    const child = spawn("script", ["-qefc", command, "/dev/null"], {
      cwd: repo,
      env: { ...env, TERM: "xterm" },
      stdio: ["pipe", "pipe", "pipe"]
    })
    const pending = [...answers]
    let screen = ""
    let searchFrom = 0
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      screen += chunk
      // a prompt is drawn only once the one before it is answered, so each answer goes to its own prompt
      for (let next = pending[0]; next !== undefined && screen.indexOf(next[0], searchFrom) >= 0; next = pending[0]) {
        pending.shift()
        searchFrom = screen.indexOf(next[0], searchFrom) + next[0].length
        child.stdin.write(`${next[1]}\r`)
      }
    })
    let stderr = ""
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    const timer = setTimeout(() => child.kill("SIGKILL"), KILL_AFTER_MS)
    child.on("error", reject)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolvePromise({ code, stdout: screen, stderr })
    })
  })
