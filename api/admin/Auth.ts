import { Effect, Layer, Redacted } from "effect"
import { timingSafeEqual } from "node:crypto"
import { AppConfig } from "../../infra/AppConfig.ts"
import { unauthorized } from "../errors.ts"
import { AdminAuth } from "./Api.ts"

// The admin token check of the AdminAuth middleware (declared in Api.ts).

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
