// The OpenAPI document HttpApi generates, extended with routes served outside
// HttpApi (the redirect, the signed postback). The spec arrives untyped.
type Spec = Readonly<Record<string, unknown>>

const record = (value: unknown): Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}

/** `spec` with more path items and one more tag. */
export const withPaths = (
  spec: Spec,
  paths: Readonly<Record<string, unknown>>,
  tag: { readonly name: string; readonly description: string }
): Record<string, unknown> => ({
  ...spec,
  paths: { ...record(spec.paths), ...paths },
  tags: [...(Array.isArray(spec.tags) ? spec.tags : []), tag]
})

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

/**
 * `spec` with `responses(path, operation)` added to every operation, where
 * the operation does not document that status already.
 */
export const withResponses = (
  spec: Spec,
  responses: (path: string, operation: Readonly<Record<string, unknown>>) => Readonly<Record<string, unknown>>
): Record<string, unknown> => ({
  ...spec,
  paths: Object.fromEntries(
    Object.entries(record(spec.paths)).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(record(item)).map(([key, value]) => {
          if (!METHODS.includes(key)) return [key, value]
          const operation = record(value)
          return [key, { ...operation, responses: { ...responses(path, operation), ...record(operation.responses) } }]
        })
      )
    ])
  )
})
