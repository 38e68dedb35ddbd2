import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { AppConfig } from "./AppConfig.ts"

/** `$DATA_DIR/admin-token`: where the local operator CLI finds the token of the running server. */
export const adminTokenPath = (dataDir: string) => join(dataDir, "admin-token")

// When ADMIN_TOKEN is unset the server makes up a token per process; the
// operator CLI on the same machine reads it from this file (mode 600, so
// only the service's user can). Removed on shutdown so a stale token does
// not outlive the server that used it.
export const AdminTokenFile = Layer.effectDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const path = adminTokenPath(config.dataDir)
    yield* Effect.acquireRelease(
      Effect.sync(() => {
        mkdirSync(config.dataDir, { recursive: true })
        writeFileSync(path, Redacted.value(config.adminToken) + "\n", { mode: 0o600 })
        chmodSync(path, 0o600)
      }),
      () => Effect.sync(() => rmSync(path, { force: true }))
    )
  })
)
