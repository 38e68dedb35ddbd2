// Horizontal bars from unicode block characters, for a terminal with or
// without colour: the longest bar is the largest value, every other bar is
// scaled to it in eighths of a character, and any non-zero value gets at
// least a sliver so "a little" never looks like "nothing".

const EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
const FULL = "█"

/** A bar of `value / max * width` characters (0 for 0; `width` for the max). */
export const bar = (value: number, max: number, width: number): string => {
  if (!(value > 0) || !(max > 0)) return ""
  const eighths = Math.max(1, Math.round((Math.min(value, max) / max) * width * 8))
  return FULL.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8]
}

export interface BarRow {
  readonly label: string
  readonly value: number
  /** Printed after the bar, e.g. the value itself and related figures. */
  readonly note: string
}

/** One line per row: label, the bar padded to `width`, then the note. */
export const barChart = (rows: ReadonlyArray<BarRow>, width = 40): string => {
  const max = Math.max(0, ...rows.map((row) => row.value))
  const labelWidth = Math.max(0, ...rows.map((row) => row.label.length))
  return rows
    .map((row) => `${row.label.padEnd(labelWidth)} │${bar(row.value, max, width).padEnd(width)}│ ${row.note}`.trimEnd())
    .join("\n")
}
