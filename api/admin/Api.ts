import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { Unauthorized } from "../errors.ts"

/**
 * Operator endpoints (/admin/...) require `Authorization: Bearer $ADMIN_TOKEN`.
 * The operator CLI uses them to reach a running server, since only one process
 * may write the DuckDB file. Declared here for the contract; Auth.ts checks the
 * token.
 */
export class AdminAuth extends HttpApiMiddleware.Service<AdminAuth, { provides: never; requires: never }>()(
  "app/api/admin/AdminAuth",
  { security: { bearer: HttpApiSecurity.bearer }, error: Unauthorized }
) {}
