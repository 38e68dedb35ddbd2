import { randomUUID } from "node:crypto"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

// A replica's name for its click journal in the shared database: the journal
// lives in this DATA_DIR, so the id lives there too (made once, kept across
// restarts). A replica restarted on the same DATA_DIR resumes its journal
// where the database says it stopped; a new DATA_DIR is a new replica.
export const replicaId = (dataDir: string): string => {
  const path = join(dataDir, "replica-id")
  try {
    return readFileSync(path, "utf8").trim()
  } catch {
    mkdirSync(dataDir, { recursive: true })
    const id = randomUUID()
    // "wx": two processes racing on one DATA_DIR would be a misconfiguration; the loser fails loudly.
    writeFileSync(path, `${id}\n`, { flag: "wx", mode: 0o600 })
    return id
  }
}
