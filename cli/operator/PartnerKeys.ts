import { Effect, Exit, Layer, Redacted, Scope } from "effect"
import { existsSync } from "node:fs"
import { resolve } from "node:path"
import { Database, type DatabaseError, type DatabaseShape } from "../../infra/Database.ts"
import { partnerRefOf, Partners } from "../../partners/Partners.ts"
import { adminCall, serverAnswers } from "./AdminHttp.ts"
import { operatorEnv } from "./OperatorEnv.ts"
import { CliError, tokenFor } from "./PipelineClient.ts"

// How `npm run partners:revoke` reaches the partners, as the other operator
// commands do: through the running server's admin endpoint (ADMIN_TOKEN, or
// the token in $DATA_DIR/admin-token) when one answers, since only one
// process may open the DuckDB file; else the store itself: PostgreSQL when
// DATABASE_URL is set (other replicas stop trusting the key within seconds),
// or $DATA_DIR/catalog.duckdb.

export interface Revoked {
  readonly partner: { readonly id: number; readonly name: string; readonly tag: string }
  readonly api_key: string | null
  /** Where the revocation was made: the server, or the store. */
  readonly via: string
}

const viaServer = async (url: string, partner: string, reissue: boolean): Promise<Revoked> => {
  const response = await adminCall(
    url,
    tokenFor(url),
    "POST",
    `/admin/partners/${encodeURIComponent(partner)}/keys/revoke`,
    { body: { reissue }, timeoutMs: 30_000 }
  )
  const body = response.json as
    { error?: { message?: string }; partner: Revoked["partner"]; api_key: string | null } | undefined
  if (!response.ok || body === undefined)
    throw new CliError(`server answered ${response.status}: ${body?.error?.message ?? response.statusText}`)
  return { partner: body.partner, api_key: body.api_key, via: `server ${url}` }
}

const viaStore = async (
  describe: string,
  open: Effect.Effect<DatabaseShape, DatabaseError, Scope.Scope>,
  partner: string,
  reissue: boolean
): Promise<Revoked> => {
  const scope = Effect.runSync(Scope.make())
  try {
    const db = await Effect.runPromise(Scope.provide(open, scope)).catch((error: DatabaseError) => {
      throw new CliError(
        /lock/i.test(error.message)
          ? `${describe} is locked by another process (a running server?): pass --server and ADMIN_TOKEN`
          : `cannot open ${describe}: ${error.message}`
      )
    })
    const result = await Effect.runPromise(
      Partners.use((partners) => partners.revoke(partnerRefOf(partner), { reissue })).pipe(
        Effect.provide(Partners.layer.pipe(Layer.provide(Layer.succeed(Database, db)))),
        Effect.mapError((error) => new CliError(error.message))
      )
    )
    if (result === undefined) throw new CliError(`no partner ${partner} (by id or tag) in ${describe}`)
    const { id, name, tag } = result.partner
    return { partner: { id, name, tag }, api_key: result.apiKey, via: describe }
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

/** Revokes the key of `partner` (an id or a tag), with a new key when `reissue`. */
export const revokeKey = async (partner: string, reissue: boolean, server: string | undefined): Promise<Revoked> => {
  const env = operatorEnv()
  const url = (server ?? env.serverUrl).replace(/\/+$/, "")
  if (server !== undefined || (await serverAnswers(url))) return viaServer(url, partner, reissue)
  if (env.databaseUrl !== undefined) {
    const shown = new URL(env.databaseUrl)
    shown.password = ""
    const open = Database.open({ url: Redacted.make(env.databaseUrl) })
    return viaStore(`PostgreSQL ${shown.host}${shown.pathname}`, open, partner, reissue)
  }
  const file = resolve(env.dataDir, "catalog.duckdb")
  if (!existsSync(file)) throw new CliError(`no server answers at ${url} and there is no database at ${file}`)
  return viaStore(`file ${file}`, Database.open({ file }), partner, reissue)
}
