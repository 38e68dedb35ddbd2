import fc from "fast-check"
import type { JsonSchema } from "./spec.ts"

// Valid values from a JSON Schema of the document. A field whose name we know
// (url, email, program_id, limit, ...) mostly gets a realistic value from
// `hints`, so valid requests get past validation and reach the handlers; the
// rest follows the schema.

export type Hints = Readonly<Record<string, fc.Arbitrary<unknown>>>

const DECIMAL = /^\^-\?\\d\+/
const CURRENCIES = ["EUR", "USD", "GBP", "JPY", "CHF"]

const stringOf = (schema: JsonSchema): fc.Arbitrary<string> => {
  const maxLength = Math.min(typeof schema.maxLength === "number" ? schema.maxLength : 40, 40)
  const minLength = Math.min(typeof schema.minLength === "number" ? schema.minLength : 0, maxLength)
  if (schema.format === "date-time") {
    return fc
      .date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2030-01-01T00:00:00Z"), noInvalidDate: true })
      .map((date) => date.toISOString())
  }
  if (typeof schema.pattern === "string") {
    if (DECIMAL.test(schema.pattern)) {
      return fc
        .tuple(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 99 }))
        .map(([a, b]) => `${a}.${b}`)
    }
    if (schema.pattern === "^[A-Z]{3}$") return fc.constantFrom(...CURRENCIES)
    return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length <= (schema.maxLength ?? 10_000))
  }
  return fc.string({ minLength, maxLength })
}

/** An arbitrary of values valid for `schema` (as far as the document says); `name` picks a hint. */
export const valueOf = (
  schema: JsonSchema,
  resolve: (schema: JsonSchema) => JsonSchema,
  hints: Hints,
  name?: string,
  depth = 0
): fc.Arbitrary<unknown> => {
  const hint = name === undefined ? undefined : hints[name]
  if (hint !== undefined) return hint
  const resolved = resolve(schema)
  if (Array.isArray(resolved.enum) && resolved.enum.length > 0) return fc.constantFrom(...resolved.enum)
  if ("const" in resolved) return fc.constant(resolved.const)
  const alternatives: ReadonlyArray<JsonSchema> | undefined = resolved.anyOf ?? resolved.oneOf
  if (alternatives !== undefined && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((alternative) => valueOf(alternative, resolve, hints, name, depth)))
  }
  if (Array.isArray(resolved.type)) {
    return fc.oneof(...resolved.type.map((type: string) => valueOf({ ...resolved, type }, resolve, hints, name, depth)))
  }
  switch (resolved.type) {
    case "string":
      return stringOf(resolved)
    case "integer":
      return fc.integer({
        min: resolved.minimum ?? (resolved.exclusiveMinimum ?? -1_000_001) + 1,
        max: resolved.maximum ?? (resolved.exclusiveMaximum ?? 1_000_001) - 1
      })
    case "number":
      return fc.double({
        min: resolved.minimum ?? -1e6,
        max: resolved.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true
      })
    case "boolean":
      return fc.boolean()
    case "null":
      return fc.constant(null)
    case "array":
      return depth > 4
        ? fc.constant([])
        : fc.array(valueOf(resolved.items ?? {}, resolve, hints, undefined, depth + 1), {
            maxLength: Math.min(resolved.maxItems ?? 3, 3)
          })
    case "object":
    case undefined: {
      if (resolved.properties === undefined) return resolved.type === "object" ? fc.constant({}) : fc.jsonValue()
      return objectOf(resolved, resolve, hints, depth)
    }
    default:
      return fc.jsonValue()
  }
}

const objectOf = (
  schema: JsonSchema,
  resolve: (schema: JsonSchema) => JsonSchema,
  hints: Hints,
  depth: number
): fc.Arbitrary<Record<string, unknown>> => {
  const required: ReadonlyArray<string> = schema.required ?? []
  const properties = Object.entries<JsonSchema>(schema.properties ?? {})
  const model = Object.fromEntries(
    properties.map(([key, property]) => [key, valueOf(property, resolve, hints, key, depth + 1)])
  )
  return fc.record(model, { requiredKeys: properties.map(([key]) => key).filter((key) => required.includes(key)) })
}
