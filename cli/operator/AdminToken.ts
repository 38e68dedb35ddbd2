import { existsSync, readFileSync } from "node:fs"
import { adminTokenPath } from "../../infra/AdminTokenFile.ts"
import { operatorEnv } from "./OperatorEnv.ts"

// Every operator command finds the server's admin token the same way:
// ADMIN_TOKEN when set, else the file the server wrote, $DATA_DIR/admin-token.
// A separate module (not PipelineClient.ts) so the commands that do not run
// pipelines do not load them just to read a token.

export class AdminTokenMissing extends Error {}

export interface FoundToken {
  readonly token: string
  /** Where it came from, for the line that says what the command uses: "ADMIN_TOKEN" or the file's path. */
  readonly from: string
}

/** ADMIN_TOKEN, else the token the server at `url` wrote to $DATA_DIR/admin-token. */
export const findAdminToken = (url: string): FoundToken => {
  const env = operatorEnv()
  if (env.adminToken !== undefined) return { token: env.adminToken, from: "ADMIN_TOKEN" }
  const file = adminTokenPath(env.dataDir)
  if (existsSync(file)) return { token: readFileSync(file, "utf8").trim(), from: file }
  throw new AdminTokenMissing(
    `a server answers at ${url}, but there is no admin token: set ADMIN_TOKEN, or DATA_DIR to the server's (the server writes ${file})`
  )
}
