import { Effect, Layer, Redacted } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { timingSafeEqual } from "node:crypto"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Unauthorized, unauthorized } from "../errors.ts"

/**
 * Operator endpoints (/admin/...) require `Authorization: Bearer $ADMIN_TOKEN`.
 * The operator CLI uses them to reach a running server, since only one process
 * may write the DuckDB file.
 */
export class AdminAuth extends HttpApiMiddleware.Service<AdminAuth, { provides: never; requires: never }>()(
  "app/api/admin/AdminAuth",
  { security: { bearer: HttpApiSecurity.bearer }, error: Unauthorized }
) {}

const sameSecret = (a: string, b: string) => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

export const AdminAuthLayer = Layer.effect(
  AdminAuth,
  Effect.gen(function* () {
    const config = yield* AppConfig
    const expected = Redacted.value(config.adminToken)
    return AdminAuth.of({
      bearer: (httpEffect, { credential }) =>
        sameSecret(Redacted.value(credential), expected)
          ? httpEffect
          : Effect.fail(unauthorized("a valid admin token is required (Authorization: Bearer $ADMIN_TOKEN)"))
    })
  })
)
