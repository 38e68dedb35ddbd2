// Plain-text output for people: aligned columns and "label: value" blocks.
// No colours and no box drawing, so output stays readable when piped or
// pasted into a ticket. Machines use --json instead.

export interface Column {
  readonly header: string
  /** Numbers read best right-aligned. */
  readonly align?: "left" | "right"
  /** Longer cells are cut with an ellipsis so one long URL cannot wreck the table. */
  readonly maxWidth?: number
}

const truncate = (text: string, max: number | undefined) =>
  max !== undefined && text.length > max ? `${text.slice(0, Math.max(1, max - 1))}…` : text

/** Renders rows under a header row with a dashed rule; `(none)` when there are no rows. */
export const formatTable = (columns: ReadonlyArray<Column>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  if (rows.length === 0) return "(none)"
  const cells = rows.map((row) => columns.map((column, i) => truncate(row[i] ?? "", column.maxWidth)))
  const widths = columns.map((column, i) => Math.max(column.header.length, ...cells.map((row) => row[i].length)))
  const line = (values: ReadonlyArray<string>) =>
    values
      .map((value, i) => (columns[i].align === "right" ? value.padStart(widths[i]) : value.padEnd(widths[i])))
      .join("  ")
      .trimEnd()
  return [
    line(columns.map((column) => column.header)),
    line(widths.map((width) => "-".repeat(width))),
    ...cells.map(line)
  ].join("\n")
}

/** Renders `label: value` lines with the values aligned. */
export const formatFields = (fields: ReadonlyArray<readonly [string, string]>): string => {
  const width = Math.max(0, ...fields.map(([label]) => label.length))
  return fields.map(([label, value]) => `${`${label}:`.padEnd(width + 1)} ${value}`).join("\n")
}

/** A cell for any JSON value: empty for null/undefined, numbers with grouping, objects as compact JSON. */
export const cell = (value: unknown): string => {
  if (value === null || value === undefined) return ""
  if (typeof value === "number") return Number.isInteger(value) ? value.toLocaleString("en-US") : value.toFixed(2)
  if (typeof value === "string") return value
  if (typeof value === "boolean") return value ? "yes" : "no"
  return JSON.stringify(value)
}
