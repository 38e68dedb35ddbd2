// JSON.parse that keeps every number as its source text ("12.30"), so money
// never passes through binary floating point (ES2025 JSON.parse source text
// access, available in Node 24).
type Reviver = (key: string, value: unknown, context: { source?: string }) => unknown

const keepNumberText: Reviver = (_key, value, context) =>
  typeof value === "number" && context?.source !== undefined ? context.source : value

export const parseExactJson = (text: string): unknown =>
  JSON.parse(text, keepNumberText as (key: string, value: unknown) => unknown)
