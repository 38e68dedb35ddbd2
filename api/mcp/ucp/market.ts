import { Effect, Option } from "effect"
import { chooseMarket, MARKET_COUNTRIES, marketOf } from "../../../domain/markets/markets.ts"
import { sellingCountry } from "../../discovery/marketParams.ts"
import type { ToolFailure } from "../toolDefinitions.ts"
import { invalidArgument } from "../toolErrors.ts"
import type { Context, Filters } from "./filters.ts"

// The shopper's market over MCP: UCP's context.address_country picks it
// (its currency is then the unit of filters.price and the only currency
// answered), context.currency asks for another currency, and the operator's
// DEFAULT_COUNTRY stands in when neither is given. The catalog tools read the
// resolved context (its `currency` set) instead of the one they were sent, so
// their filters and price ranges follow the market.

export interface MarketContext {
  /** The context with `currency` (and `address_country`) set from the market when the request gave none. */
  readonly context: Context | undefined
  /** The market's country, when one was chosen. */
  readonly country: string | undefined
}

export const marketContext = (
  context: Context | undefined,
  filters: Filters | undefined,
  defaultCountry: Option.Option<string>
): Effect.Effect<MarketContext, ToolFailure> => {
  const country = context?.address_country
  if (country !== undefined && marketOf(country) === undefined)
    return Effect.fail(
      invalidArgument(
        "catalog.context.address_country",
        `must be an ISO 3166-1 alpha-2 country we sell in: ${MARKET_COUNTRIES.join(", ")}`
      )
    )
  const chosen = chooseMarket({
    country,
    currency: context?.currency,
    defaultCountry: Option.getOrUndefined(defaultCountry)
  })
  const currency = context?.currency ?? chosen?.currency
  // Bounds in minor units of no currency would be compared across USD, GBP and EUR as if they were one.
  if (currency === undefined && (filters?.price?.min !== undefined || filters?.price?.max !== undefined))
    return Effect.fail(
      invalidArgument(
        "catalog.filters.price",
        "needs a currency: give catalog.context.currency or catalog.context.address_country (the bounds are in its minor units)"
      )
    )
  // the market's country too (DEFAULT_COUNTRY's when none was given): offers are those sold in it,
  // unless another currency than the market's is asked for (the shopper shopping abroad, as over HTTP)
  const selling = sellingCountry(chosen)
  const { address_country: _given, ...rest } = context ?? {}
  const resolved =
    context === undefined && selling === undefined
      ? context
      : { ...rest, ...(selling === undefined ? {} : { address_country: selling }) }
  return Effect.succeed({
    context: currency === undefined ? resolved : { ...resolved, currency },
    country: chosen?.market.country
  })
}
