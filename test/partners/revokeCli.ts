import { execFile } from "node:child_process"
import { promisify } from "node:util"

const exec = promisify(execFile)

/** Runs `npm run partners:revoke -- <args>` (its script) with `env` added to this process's environment. */
export const revokeCli = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  exec(process.execPath, ["cli/operator/revoke-key.ts", ...args], {
    env: { ...process.env, ...env },
    timeout: 60_000
  })
