import { Context, Effect, Layer, Schema } from "effect"
import { type ExchangeRates as Rates, NO_RATES, ratesOf } from "../domain/money/exchangeRates.ts"
import { Text } from "../infra/columns.ts"
import { Database } from "../infra/Database.ts"
import { CatalogEvents } from "../infra/events/CatalogEvents.ts"
import { latestLoad } from "../infra/latestLoad.ts"

// The reference exchange rates the exchange_rates feed loaded, held in
// memory (a search must not wait on the store) and re-read on every catalog
// event, as the programme matcher's catalog is: a feed run publishes them
// and bumps the catalog version. With several feeds, a currency's newest
// day wins. Without any, every price compares only within its currency.

const RateRow = Schema.Struct({ currency: Text, per_eur: Schema.Number, as_of: Text })

export class ExchangeRates extends Context.Service<
  ExchangeRates,
  {
    /** The rates loaded now (NO_RATES before the feed's first run). */
    readonly current: Effect.Effect<Rates>
    /** Re-reads the table now (tests, tools). */
    readonly reload: Effect.Effect<void>
  }
>()("app/discovery/ExchangeRates") {
  static readonly layer = Layer.effect(
    ExchangeRates,
    Effect.gen(function* () {
      const db = yield* Database
      let rates: Rates = NO_RATES
      const read = db.queryAs(
        RateRow,
        `SELECT currency, CAST(per_eur AS DOUBLE PRECISION) AS per_eur, CAST(as_of AS VARCHAR) AS as_of
         FROM exchange_rates ORDER BY as_of`
      )
      const reload = latestLoad(read, (rows) => {
        // ascending by day: a later row of a currency replaces an earlier one
        rates = ratesOf(
          rows.at(-1)?.as_of ?? null,
          rows.map((row) => [row.currency, row.per_eur] as const)
        )
      }).pipe(
        // the rates held stay until a read succeeds: ordering by stale rates beats failing searches
        Effect.catch((error) => Effect.logWarning("exchange rates: reload failed; keeping the loaded rates", error))
      )
      yield* reload
      yield* (yield* CatalogEvents).subscribe("exchange rates reload", ({ change }) =>
        change._tag === "Followed" && !change.catalogMoved ? Effect.void : reload
      )
      return ExchangeRates.of({ current: Effect.sync(() => rates), reload })
    })
  )
}
