import { formatDecimal, parseDecimal, roundTo } from "../../../domain/money/Decimal.ts"

/**
 * An exact amount ("12.3450") as the dashboard shows money: two decimals
 * (rounded half to even, as the ledger rounds) and always its currency.
 */
export const moneyText = (amount: string, currency: string): string => {
  const units = parseDecimal(amount) ?? 0n
  return `${formatDecimal(roundTo(units, 2), 2)} ${currency}`
}

/** The same amount as a number, for charts (their scale, never a shown figure). */
export const moneyNumber = (amount: string): number => Number(amount)

/** The exact sum of amounts ("12.3400" + "0.0100"), as exact decimal text. */
export const sumMoney = (amounts: ReadonlyArray<string>): string =>
  formatDecimal(amounts.reduce((sum, amount) => sum + (parseDecimal(amount) ?? 0n), 0n))
