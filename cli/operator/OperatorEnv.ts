import { resolve } from "node:path"

// Everything the operator commands (ingest, status, conversions) read from
// their environment, in one place. The names and defaults are the service's
// own (infra/AppConfig.ts), so a command run beside a server finds it; read
// at call time, not import time, so tests can set them per case.
export interface OperatorEnv {
  /** http://$HOST:$PORT, where a local server would answer. */
  readonly serverUrl: string
  /** DATA_DIR, resolved: the server's DuckDB file and admin-token file live here. */
  readonly dataDir: string
  /** ADMIN_TOKEN; unset or empty is `undefined`. */
  readonly adminToken: string | undefined
  /** REPORTING_CURRENCY, upper-cased. */
  readonly reportingCurrency: string
  /** DATABASE_URL (PostgreSQL as the store); unset or empty is `undefined`. */
  readonly databaseUrl: string | undefined
}

export const operatorEnv = (env: NodeJS.ProcessEnv = process.env): OperatorEnv => ({
  serverUrl: `http://${env.HOST ?? "127.0.0.1"}:${env.PORT ?? "3000"}`,
  dataDir: resolve(env.DATA_DIR ?? "data/var"),
  adminToken: env.ADMIN_TOKEN === undefined || env.ADMIN_TOKEN === "" ? undefined : env.ADMIN_TOKEN,
  reportingCurrency: (env.REPORTING_CURRENCY ?? "USD").toUpperCase(),
  databaseUrl: env.DATABASE_URL === undefined || env.DATABASE_URL === "" ? undefined : env.DATABASE_URL
})
