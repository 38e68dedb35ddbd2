import { Clock, Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ConversionLedger } from "../../../conversions/ConversionLedger.ts"
import { ConversionQueries } from "../../../conversions/ConversionQueries.ts"
import { makeReconciliation } from "../../../conversions/Reconciliation.ts"
import { VALIDATION_DAYS } from "../../../conversions/reconciliationRules.ts"
import { ReportingRates } from "../../../conversions/ReportingRates.ts"
import { Database } from "../../../infra/Database.ts"
import { Api } from "../../Api.ts"
import { pageOf, pageRequest } from "../../v1/ListParams.ts"
import { storageUnavailable } from "../../v1/dbUnavailable.ts"
import { AdminAuthLayer } from "../Auth.ts"

const orUnavailable = storageUnavailable("admin conversions", "the conversions store")

export const AdminConversionsHandlers = HttpApiBuilder.group(
  Api,
  "adminConversions",
  Effect.fn(function* (handlers) {
    const queries = yield* ConversionQueries
    const rates = yield* ReportingRates
    const ledger = yield* ConversionLedger
    const reconciliation = makeReconciliation(yield* Database)
    return handlers
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const page = pageRequest(query)
          const { items, total } = yield* orUnavailable(
            queries.list(
              {
                status: query.status,
                unattributed: query.unattributed === undefined ? undefined : query.unattributed === "true",
                unattributedReason: query.unattributed_reason,
                network: query.network,
                partnerId: query.partner_id
              },
              page
            )
          )
          return pageOf(items, page, total)
        })
      )
      .handle("summary", () => orUnavailable(queries.summary(rates.reportingCurrency)))
      .handle("reconciliation", ({ query }) =>
        Effect.gen(function* () {
          const now = new Date(yield* Clock.currentTimeMillis)
          const months = yield* orUnavailable(reconciliation.reconcile(query, rates.reportingCurrency, now))
          return { reporting_currency: rates.reportingCurrency, validation_days: VALIDATION_DAYS, months }
        })
      )
      .handle("reattribute", () =>
        orUnavailable(ledger.reattribute()).pipe(Effect.map((reattributed) => ({ reattributed })))
      )
  })
).pipe(Layer.provide(AdminAuthLayer))
