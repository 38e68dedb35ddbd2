import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { ServiceUnavailable, TooManyRequests, Unauthorized } from "../../errors.ts"
import type { Partner } from "../../../partners/Partners.ts"

// The /api/v1 auth and rate-limit middlewares as the contract declares them:
// the security scheme and the errors each may answer. Their implementations
// (PartnerAuth.ts) need the partner store and the rate limits; the endpoint
// declarations and the partner CLI's client import only this file, so the
// contract loads without a store.

/** The authenticated partner (required-auth endpoints). */
export class CurrentPartner extends Context.Service<CurrentPartner, Partner>()("app/api/v1/auth/CurrentPartner") {}

/** The partner, or undefined for an anonymous caller (optional-auth endpoints). */
export class MaybePartner extends Context.Service<MaybePartner, { readonly partner: Partner | undefined }>()(
  "app/api/v1/auth/MaybePartner"
) {}

const errors = [Unauthorized, TooManyRequests, ServiceUnavailable] as const

export class PartnerAuth extends HttpApiMiddleware.Service<PartnerAuth, { provides: CurrentPartner }>()(
  "app/api/v1/auth/PartnerAuth",
  { security: { bearer: HttpApiSecurity.bearer }, error: errors }
) {}

export class OptionalPartnerAuth extends HttpApiMiddleware.Service<OptionalPartnerAuth, { provides: MaybePartner }>()(
  "app/api/v1/auth/OptionalPartnerAuth",
  { security: { bearer: HttpApiSecurity.bearer }, error: errors }
) {}

/** Per-IP limit for anonymous endpoints (catalog browsing). */
export class IpRateLimit extends HttpApiMiddleware.Service<IpRateLimit>()("app/api/v1/auth/IpRateLimit", {
  error: TooManyRequests
}) {}

/** Stricter per-IP limit for POST /partners/register. */
export class RegistrationRateLimit extends HttpApiMiddleware.Service<RegistrationRateLimit>()(
  "app/api/v1/auth/RegistrationRateLimit",
  { error: TooManyRequests }
) {}
