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
