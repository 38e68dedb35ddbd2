import type { ConversionRecord } from "./ConversionRecord.ts"
import { RowError, unsafeTextProblem } from "./reports/fields.ts"
import { GENERIC_COLUMNS, genericRecord } from "./reports/generic.ts"

// A postback body is the generic format as JSON: one conversion object, an
// array of them, or { "conversions": [...] } (at most MAX_PER_POSTBACK). The
// network is the signed X-Network; a body naming another network is refused.
// The decoder is strict, exactly as /openapi.json documents it: every value a
// string (click_ref and updated_time may be null), no property we do not know
// (a misspelt "updated_tme" silently ignored would keep a status from
// settling), no text a store cannot hold, one row per transaction id.
export const MAX_PER_POSTBACK = 500

/** Conversion times before this are typos (0001, 1970) rather than sales. */
export const EARLIEST_CONVERSION_TIME = new Date("2000-01-01T00:00:00Z")
/** How far ahead of our clock a conversion time may be: a network's clock or time zone slip, not year 9999. */
export const MAX_FUTURE_MS = 24 * 60 * 60 * 1000

const NULLABLE = new Set<string>(["click_ref", "updated_time"])
const KNOWN = new Set<string>(GENERIC_COLUMNS)
const TIME_FIELDS = [
  ["event_time", "eventAt"],
  ["updated_time", "updatedAt"]
] as const

export type BodyResult =
  | { readonly ok: true; readonly records: ReadonlyArray<ConversionRecord> }
  | {
      readonly ok: false
      readonly field: string
      readonly message: string
      /** Index of the conversion in the list (0 for a body of one conversion). */
      readonly row?: number
    }

type Invalid = Extract<BodyResult, { ok: false }>

/** Why one conversion object is not what the contract allows, as a field and a message, or undefined. */
const contractProblem = (fields: Record<string, unknown>, network: string) => {
  for (const [name, value] of Object.entries(fields)) {
    if (!KNOWN.has(name)) return { field: name, message: `unknown property (known: ${GENERIC_COLUMNS.join(", ")})` }
    if (value === null && NULLABLE.has(name)) continue
    if (typeof value !== "string") {
      return { field: name, message: `must be a string${NULLABLE.has(name) ? " or null" : ""}, not ${typeName(value)}` }
    }
    const unsafe = unsafeTextProblem(value)
    if (unsafe !== undefined) return { field: name, message: unsafe }
  }
  if (fields.network !== undefined && fields.network !== network)
    return { field: "network", message: "must match X-Network" }
  return undefined
}

const typeName = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`)

const timeProblem = (record: ConversionRecord, now: Date) => {
  for (const [field, key] of TIME_FIELDS) {
    const at = record[key]
    if (at === null) continue
    if (at < EARLIEST_CONVERSION_TIME) return { field, message: `before ${EARLIEST_CONVERSION_TIME.toISOString()}` }
    if (at.getTime() > now.getTime() + MAX_FUTURE_MS) {
      return {
        field,
        message: `more than ${MAX_FUTURE_MS / 3_600_000} hours after the server's time (${now.toISOString()})`
      }
    }
  }
  return undefined
}

const listOf = (json: unknown): { items: unknown; path: string | undefined } | Invalid => {
  if (Array.isArray(json)) return { items: json, path: "" }
  if (typeof json === "object" && json !== null && "conversions" in json) {
    const extra = Object.keys(json).find((key) => key !== "conversions")
    if (extra !== undefined) return { ok: false, field: extra, message: "unknown property (known: conversions)" }
    return { items: (json as { conversions: unknown }).conversions, path: "conversions" }
  }
  return { items: [json], path: undefined }
}

export const parsePostbackBody = (text: string, network: string, now: Date): BodyResult => {
  let json: unknown
  try {
    // Plain JSON.parse: a number stays a number, so a wrong type is refused rather than read as text.
    json = JSON.parse(text)
  } catch (error) {
    return { ok: false, field: "(body)", message: `not valid JSON: ${(error as Error).message}` }
  }
  const list = listOf(json)
  if ("ok" in list) return list
  if (!Array.isArray(list.items)) return { ok: false, field: "conversions", message: "must be an array" }
  if (list.items.length === 0) return { ok: false, field: list.path || "(body)", message: "no conversions" }
  if (list.items.length > MAX_PER_POSTBACK) {
    return { ok: false, field: list.path || "(body)", message: `at most ${MAX_PER_POSTBACK} conversions per postback` }
  }
  const records: Array<ConversionRecord> = []
  const rowOf = new Map<string, number>()
  for (const [row, item] of list.items.entries()) {
    const prefix = list.path === undefined ? "" : `${list.path ? `${list.path}.` : ""}${row}.`
    const invalid = (field: string, message: string): Invalid => ({
      ok: false,
      field: `${prefix}${field}`,
      message,
      row
    })
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      return { ok: false, field: prefix.slice(0, -1) || "(body)", message: "expected a JSON object", row }
    }
    const fields = item as Record<string, unknown>
    const problem = contractProblem(fields, network)
    if (problem !== undefined) return invalid(problem.field, problem.message)
    let record: ConversionRecord
    try {
      record = genericRecord({ network }, { corrections: false })(fields)
    } catch (error) {
      if (!(error instanceof RowError)) throw error
      const [field, ...message] = error.message.split(": ")
      return invalid(field!, message.join(": "))
    }
    const time = timeProblem(record, now)
    if (time !== undefined) return invalid(time.field, time.message)
    // Last-wins would let a batch hide a status change behind a later row; the network must say which one it means.
    const first = rowOf.get(record.networkTxId)
    if (first !== undefined) {
      return invalid(
        "transaction_id",
        `duplicate transaction id ${JSON.stringify(record.networkTxId)} (also row ${first})`
      )
    }
    rowOf.set(record.networkTxId, row)
    records.push(record)
  }
  return { ok: true, records }
}
