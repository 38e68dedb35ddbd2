import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ConversionLedger } from "../../../conversions/ConversionLedger.ts"
import { ConversionQueries } from "../../../conversions/ConversionQueries.ts"
import { ReportingRates } from "../../../conversions/ReportingRates.ts"
import { Api } from "../../Api.ts"
import { unavailable } from "../../errors.ts"
import { pageOf, pageRequest } from "../../v1/ListParams.ts"
import { AdminAuthLayer } from "../Auth.ts"

const orUnavailable = <A, R>(effect: Effect.Effect<A, { readonly _tag: "DatabaseError"; readonly message: string }, R>) =>
  effect.pipe(
    Effect.tapError((error) => Effect.logError("admin conversions: database query failed", error.message)),
    Effect.mapError(() => unavailable("storage_unavailable", "the conversions store is not reachable; retry shortly"))
  )

export const AdminConversionsHandlers = HttpApiBuilder.group(
  Api,
  "adminConversions",
  Effect.fn(function*(handlers) {
    const queries = yield* ConversionQueries
    const rates = yield* ReportingRates
    const ledger = yield* ConversionLedger
    return handlers
      .handle("list", ({ query }) =>
        Effect.gen(function*() {
          const page = pageRequest(query)
          const { items, total } = yield* orUnavailable(queries.list({
            status: query.status,
            unattributed: query.unattributed === undefined ? undefined : query.unattributed === "true",
            network: query.network,
            partnerId: query.partner_id
          }, page))
          return pageOf(items, page, total)
        }))
      .handle("summary", () => orUnavailable(queries.summary(rates.reportingCurrency)))
      .handle("reattribute", () => orUnavailable(ledger.reattribute()).pipe(Effect.map((reattributed) => ({ reattributed }))))
  })
).pipe(Layer.provide(AdminAuthLayer))
