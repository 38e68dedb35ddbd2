import * as Redacted from "effect/Redacted"
import { join } from "node:path"
import { adminTokenPath } from "./AdminTokenFile.ts"
import type { AppConfigShape } from "./AppConfig.ts"

// The lines `npm start` says about itself: where it listens and what it
// uses once it serves, and, when its port is taken, which port and which
// variable to change (instead of an empty ServeError and a stack).

/** Where the data lives, without a password: "DuckDB <file>" or "PostgreSQL <host>/<database>". */
export const storeOf = (config: Pick<AppConfigShape, "databaseUrl" | "dataDir">) => {
  if (config.databaseUrl._tag === "None") return `DuckDB ${join(config.dataDir, "catalog.duckdb")}`
  const url = new URL(Redacted.value(config.databaseUrl.value))
  return `PostgreSQL ${url.host}${url.pathname}`
}

export const listeningLine = (config: Pick<AppConfigShape, "host" | "port" | "dataDir" | "databaseUrl">) => {
  const url = `http://${config.host}:${config.port}`
  const token = adminTokenPath(config.dataDir)
  const store = storeOf(config)
  return {
    message: `serving ${url} (admin token in ${token}; store ${store})`,
    annotations: { url, adminTokenFile: token, store }
  }
}

interface ErrnoLike {
  readonly code?: unknown
  readonly address?: unknown
  readonly port?: unknown
}

/** The listen error when the failure is a taken address: a ServeError whose cause is EADDRINUSE. */
export const addressInUse = (error: unknown): ErrnoLike | undefined => {
  const cause = (error as { readonly cause?: ErrnoLike } | null)?.cause
  return cause?.code === "EADDRINUSE" ? cause : undefined
}

export const portInUseLine = (config: Pick<AppConfigShape, "host" | "port">) =>
  `port ${config.port} on ${config.host} is in use (another service, or this one already running): ` +
  `set PORT to a free port, e.g. PORT=${config.port + 1} npm start`
