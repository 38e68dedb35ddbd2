import { parseDecimal, type Scaled } from "../../domain/money/Decimal.ts"
import { CURRENCY_PATTERN } from "../../domain/money/Currency.ts"

// Field readers shared by the report parsers. Each throws a RowError naming
// the field, which the parser turns into a rejected row with its line.
export class RowError extends Error {}

const MAX_ID = 200
// C0, DEL and C1 controls: a NUL or an escape sequence in an id ends up in a
// terminal (the conversions CLI) or a log line.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

/**
 * Why a text cannot be stored as it is, or undefined: a lone surrogate is no
 * Unicode at all (no UTF-8 encoding: the database refuses the whole batch),
 * and a control character is never part of an id, a code or a time.
 */
export const unsafeTextProblem = (value: string): string | undefined => {
  if (!value.isWellFormed()) return "contains a lone surrogate (not valid Unicode)"
  const control = CONTROL.exec(value)
  if (control !== null) {
    return `contains a control character (U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")})`
  }
  return undefined
}

export const text = (value: unknown, field: string): string => {
  const string = typeof value === "number" ? String(value) : value
  if (typeof string !== "string" || string.trim() === "") throw new RowError(`${field}: required`)
  if (string.length > MAX_ID) throw new RowError(`${field}: longer than ${MAX_ID} characters`)
  const unsafe = unsafeTextProblem(string)
  if (unsafe !== undefined) throw new RowError(`${field}: ${unsafe}`)
  return string.trim()
}

/** A nested JSON object of a report item (Partnerize's conversion_data, Skimlinks' transaction_details). */
export const objectAt = (value: unknown, field: string): Record<string, unknown> => {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new RowError(`${field}: expected an object`)
  return value as Record<string, unknown>
}

export const optionalText = (value: unknown, field: string): string | null =>
  value === undefined || value === null || (typeof value === "string" && value.trim() === "")
    ? null
    : text(value, field)

/**
 * A decimal amount. Report JSON is parsed keeping each number's source text
 * (see exactJson.ts), so both "12.30" and 12.30 arrive here as text.
 */
export const amount = (value: unknown, field: string): Scaled => {
  if (typeof value !== "string" || value.trim() === "") throw new RowError(`${field}: required`)
  const parsed = parseDecimal(value)
  if (parsed === undefined)
    throw new RowError(`${field}: not a decimal amount with at most 4 fraction digits: ${value.slice(0, 40)}`)
  if (parsed >= 10n ** 18n || parsed <= -(10n ** 18n)) throw new RowError(`${field}: out of range`)
  return parsed
}

export const currency = (value: unknown, field: string): string => {
  const code = typeof value === "string" ? value.trim().toUpperCase() : ""
  if (!CURRENCY_PATTERN.test(code)) throw new RowError(`${field}: not an ISO 4217 currency code`)
  return code
}

const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?(?:Z|([+-])(\d{2}):?(\d{2}))?$/

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate()

/**
 * Why the calendar fields of an ISO_TIME match do not name a real instant, or
 * undefined. JavaScript's Date rolls impossible values over (30 February
 * becomes 2 March), which would book a conversion on a day nobody reported.
 */
const impossible = (m: RegExpExecArray): string | undefined => {
  const [year, month, day, hour = 0, minute = 0, second = 0] = m
    .slice(1, 7)
    .map((part) => (part === undefined ? undefined : Number(part)))
  const offsetHours = m[8] === undefined ? 0 : Number(m[8])
  const offsetMinutes = m[9] === undefined ? 0 : Number(m[9])
  if (month! < 1 || month! > 12) return `month ${m[2]} does not exist`
  if (day! < 1 || day! > daysIn(year!, month!))
    return `day ${m[3]} does not exist in ${year}-${m[2]} (${daysIn(year!, month!)} days)`
  if (hour > 23 || minute > 59 || second > 59)
    return `time ${m[4]}:${m[5]}${m[6] === undefined ? "" : `:${m[6]}`} does not exist`
  if (offsetHours > 14 || offsetMinutes > 59) return `offset ${m[7]}${m[8]}:${m[9]} does not exist`
  return undefined
}

/** ISO 8601 date-time; a time without an offset is read as UTC (documented per format). Impossible dates are rejected, never rolled over. */
export const time = (value: unknown, field: string): Date => {
  const raw = typeof value === "string" ? value.trim() : ""
  const match = ISO_TIME.exec(raw)
  if (match === null) throw new RowError(`${field}: not an ISO 8601 date-time`)
  const problem = impossible(match)
  if (problem !== undefined) throw new RowError(`${field}: not a valid date-time: ${problem}`)
  const hasOffset = /(?:Z|[+-]\d{2}:?\d{2})$/.test(raw) && raw.length > 10
  const date = new Date(
    hasOffset ? raw.replace(" ", "T") : `${raw.replace(" ", "T")}${raw.length === 10 ? "T00:00:00" : ""}Z`
  )
  if (Number.isNaN(date.getTime())) throw new RowError(`${field}: not a valid date-time`)
  return date
}

export const optionalTime = (value: unknown, field: string): Date | null =>
  value === undefined || value === null || value === "" ? null : time(value, field)

/** Maps a network's status word to ours, or names the field and the accepted words. */
export const status = <S extends string>(value: unknown, field: string, map: Record<string, S>): S => {
  const key = typeof value === "string" ? value.trim().toLowerCase() : ""
  const mapped = Object.hasOwn(map, key) ? map[key] : undefined
  if (mapped === undefined) throw new RowError(`${field}: expected one of ${Object.keys(map).join(", ")}`)
  return mapped
}
