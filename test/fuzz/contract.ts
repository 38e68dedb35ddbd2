import type { JsonSchema } from "./spec.ts"

// Whether a body mutation breaks what /openapi.json says about the body, so
// the answer must refuse it (4xx): a value of a type the schema does not
// allow, a property where the object says additionalProperties: false, a
// required property left out. Where the document leaves room (a union it
// cannot decide, an object without additionalProperties: false), nothing is
// claimed.

export type Contract =
  | { readonly kind: "type"; readonly path: ReadonlyArray<string | number>; readonly value: unknown }
  | { readonly kind: "unknown property"; readonly path: ReadonlyArray<string | number> }
  | { readonly kind: "missing"; readonly path: ReadonlyArray<string | number> }

type Resolve = (schema: JsonSchema) => JsonSchema

/** The schema alternatives a value may match: anyOf/oneOf flattened, $refs resolved. */
const alternatives = (schema: JsonSchema, resolve: Resolve): Array<JsonSchema> => {
  const resolved = resolve(schema)
  const union: ReadonlyArray<JsonSchema> | undefined = resolved.anyOf ?? resolved.oneOf
  return union === undefined ? [resolved] : union.flatMap((alternative) => alternatives(alternative, resolve))
}

const typesOf = (schema: JsonSchema): ReadonlyArray<string> | undefined =>
  Array.isArray(schema.type) ? schema.type : typeof schema.type === "string" ? [schema.type] : undefined

const accepts = (schema: JsonSchema, value: unknown): boolean => {
  if (Array.isArray(schema.enum)) return schema.enum.some((option: unknown) => option === value)
  const types = typesOf(schema)
  if (types === undefined) return true
  const type = value === null ? "null" : Array.isArray(value) ? "array" : typeof value
  return types.some(
    (allowed) => allowed === type || (allowed === "integer" && typeof value === "number" && Number.isInteger(value))
  )
}

/** The schemas a value at `path` may be checked against (empty when the document does not say). */
const schemasAt = (root: JsonSchema, path: ReadonlyArray<string | number>, resolve: Resolve): Array<JsonSchema> => {
  let current = alternatives(root, resolve)
  for (const segment of path) {
    current = current.flatMap((schema) => {
      if (typeof segment === "number") return schema.items === undefined ? [] : alternatives(schema.items, resolve)
      const property = schema.properties?.[segment]
      return property === undefined ? [] : alternatives(property, resolve)
    })
  }
  return current
}

/** The body shape the value at `path` must take: objects only (an array item or a scalar here cannot be judged). */
const objectsAt = (root: JsonSchema, path: ReadonlyArray<string | number>, resolve: Resolve) =>
  schemasAt(root, path, resolve).filter(
    (schema) => typesOf(schema)?.includes("object") || schema.properties !== undefined
  )

/** Why the document forbids the mutated body, or undefined when it does not clearly forbid it. */
export const contractBreach = (
  body: JsonSchema | undefined,
  resolve: Resolve,
  contract: Contract
): string | undefined => {
  if (body === undefined) return undefined
  const where = contract.path.join(".") || "(root)"
  switch (contract.kind) {
    case "type": {
      const schemas = schemasAt(body, contract.path, resolve)
      return schemas.length > 0 && schemas.every((schema) => !accepts(schema, contract.value))
        ? `${where} may not be ${JSON.stringify(contract.value)}`
        : undefined
    }
    case "unknown property": {
      const objects = objectsAt(body, contract.path, resolve)
      return objects.length > 0 && objects.every((schema) => schema.additionalProperties === false)
        ? `${where} has additionalProperties: false`
        : undefined
    }
    case "missing": {
      const key = contract.path[contract.path.length - 1]
      if (typeof key !== "string") return undefined
      const objects = objectsAt(body, contract.path.slice(0, -1), resolve)
      return objects.length > 0 && objects.every((schema) => (schema.required ?? []).includes(key))
        ? `${where} is required`
        : undefined
    }
  }
}
