import type { ConversionRecord } from "./ConversionRecord.ts"
import { parseExactJson } from "./reports/exactJson.ts"
import { RowError } from "./reports/fields.ts"
import { genericRecord } from "./reports/generic.ts"

// A postback body is the generic format as JSON: one conversion object, an
// array of them, or { "conversions": [...] } (at most MAX_PER_POSTBACK). The
// network is the signed X-Network; a body naming another network is refused.
export const MAX_PER_POSTBACK = 500

export type BodyResult =
  | { readonly ok: true; readonly records: ReadonlyArray<ConversionRecord> }
  | { readonly ok: false; readonly field: string; readonly message: string }

export const parsePostbackBody = (text: string, network: string): BodyResult => {
  let json: unknown
  try {
    json = parseExactJson(text)
  } catch (error) {
    return { ok: false, field: "(body)", message: `not valid JSON: ${(error as Error).message}` }
  }
  const list = Array.isArray(json)
    ? { items: json, path: "" }
    : typeof json === "object" && json !== null && "conversions" in json
      ? { items: (json as { conversions: unknown }).conversions, path: "conversions" }
      : { items: [json], path: undefined }
  if (!Array.isArray(list.items)) return { ok: false, field: "conversions", message: "must be an array" }
  if (list.items.length === 0) return { ok: false, field: list.path || "(body)", message: "no conversions" }
  if (list.items.length > MAX_PER_POSTBACK) {
    return { ok: false, field: list.path || "(body)", message: `at most ${MAX_PER_POSTBACK} conversions per postback` }
  }
  const records: Array<ConversionRecord> = []
  for (const [index, item] of list.items.entries()) {
    const prefix = list.path === undefined ? "" : `${list.path ? `${list.path}.` : ""}${index}.`
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      return { ok: false, field: prefix.slice(0, -1) || "(body)", message: "expected a JSON object" }
    }
    const fields = item as Record<string, unknown>
    if (fields.network !== undefined && fields.network !== network) {
      return { ok: false, field: `${prefix}network`, message: "must match X-Network" }
    }
    try {
      records.push(genericRecord({ network }, { corrections: false })(fields))
    } catch (error) {
      if (!(error instanceof RowError)) throw error
      const [field, ...message] = error.message.split(": ")
      return { ok: false, field: `${prefix}${field}`, message: message.join(": ") }
    }
  }
  return { ok: true, records }
}
