import { escapeHtml } from "./pageShell.ts"

// Small charts drawn on the server as inline SVG: no script, no image
// request, readable by screen readers (role="img" with a title and a
// description naming the total and the highest point). Used by the partner
// dashboard (a bar per day) and the landing page (a price line over 30 days).

export interface ChartPoint {
  /** e.g. the day, "2026-11-28" */
  readonly label: string
  readonly value: number
}

export interface ChartOptions {
  /** Unique in the page: ids of the title and description are made from it. */
  readonly id: string
  readonly title: string
  /** A value as text, e.g. "12.34 USD" (default: the number). */
  readonly format?: (value: number) => string
  /** What the description calls the sum (omit for prices, whose sum means nothing). */
  readonly totalLabel?: string
}

const WIDTH = 600
const HEIGHT = 160
const PAD_LEFT = 8
const PAD_BOTTOM = 22
const PAD_TOP = 18
const BAR_COLOUR = "#0b5394"
const TEXT_COLOUR = "#1a1a1a"

const scale = (points: ReadonlyArray<ChartPoint>) => {
  const max = Math.max(0, ...points.map((point) => point.value))
  const min = Math.min(0, ...points.map((point) => point.value))
  const span = max - min === 0 ? 1 : max - min
  const plot = HEIGHT - PAD_TOP - PAD_BOTTOM
  return { max, y: (value: number) => PAD_TOP + plot - ((value - min) / span) * plot }
}

const frame = (options: ChartOptions, points: ReadonlyArray<ChartPoint>, marks: string) => {
  const format = options.format ?? ((value: number) => String(value))
  const { max } = scale(points)
  const highest = points.find((point) => point.value === max)
  const total = points.reduce((sum, point) => sum + point.value, 0)
  const description = [
    options.totalLabel === undefined ? "" : `${options.totalLabel}: ${format(total)}.`,
    highest === undefined ? "" : `Highest: ${format(highest.value)} on ${highest.label}.`,
    points.length > 0 ? `From ${points[0].label} to ${points[points.length - 1].label}.` : "No data."
  ]
    .filter((part) => part !== "")
    .join(" ")
  const first = points[0]?.label ?? ""
  const last = points[points.length - 1]?.label ?? ""
  return (
    `<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" role="img" ` +
    `aria-labelledby="${options.id}-title ${options.id}-desc" xmlns="http://www.w3.org/2000/svg">` +
    `<title id="${options.id}-title">${escapeHtml(options.title)}</title>` +
    `<desc id="${options.id}-desc">${escapeHtml(description)}</desc>` +
    `<line x1="${PAD_LEFT}" y1="${HEIGHT - PAD_BOTTOM}" x2="${WIDTH}" y2="${HEIGHT - PAD_BOTTOM}" stroke="#595959"/>` +
    marks +
    `<text x="${PAD_LEFT}" y="12" font-size="12" fill="${TEXT_COLOUR}">max ${escapeHtml(format(max))}</text>` +
    `<text x="${PAD_LEFT}" y="${HEIGHT - 6}" font-size="12" fill="${TEXT_COLOUR}">${escapeHtml(first)}</text>` +
    `<text x="${WIDTH}" y="${HEIGHT - 6}" font-size="12" fill="${TEXT_COLOUR}" text-anchor="end">${escapeHtml(last)}</text>` +
    `</svg>`
  )
}

/** One bar per point, oldest first (e.g. clicks per day). */
export const barChart = (options: ChartOptions, points: ReadonlyArray<ChartPoint>): string => {
  const { y } = scale(points)
  const step = (WIDTH - PAD_LEFT) / Math.max(1, points.length)
  const format = options.format ?? ((value: number) => String(value))
  const bars = points
    .map((point, i) => {
      const top = Math.min(y(point.value), y(0))
      const height = Math.max(point.value === 0 ? 0 : 1, Math.abs(y(0) - y(point.value)))
      return (
        `<rect x="${(PAD_LEFT + i * step + step * 0.1).toFixed(1)}" y="${top.toFixed(1)}" ` +
        `width="${(step * 0.8).toFixed(1)}" height="${height.toFixed(1)}" fill="${BAR_COLOUR}">` +
        `<title>${escapeHtml(`${point.label}: ${format(point.value)}`)}</title></rect>`
      )
    })
    .join("")
  return frame(options, points, bars)
}

/** A line through the points, oldest first (e.g. a price per day). */
export const lineChart = (options: ChartOptions, points: ReadonlyArray<ChartPoint>): string => {
  const { y } = scale(points)
  const step = (WIDTH - PAD_LEFT) / Math.max(1, points.length - 1)
  const path = points.map((point, i) => `${(PAD_LEFT + i * step).toFixed(1)},${y(point.value).toFixed(1)}`).join(" ")
  return frame(
    options,
    points,
    `<polyline points="${path}" fill="none" stroke="${BAR_COLOUR}" stroke-width="2.5" stroke-linejoin="round"/>`
  )
}
