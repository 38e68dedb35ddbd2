import { Clock, Effect, Schema } from "effect"
import type { ProductDocument } from "../readModel/documents.ts"
import { Text } from "../infra/columns.ts"
import type { DatabaseShape } from "../infra/Database.ts"
import { escapeHtml } from "./pageShell.ts"
import { formatMoney, landingPath } from "./present.ts"
import { lineChart } from "./svgChart.ts"

// What the landing page shows beside the offer: the other stores' offers for
// the same model, and the offer's price over the last 30 days. Both are
// extras: when they cannot be read the page is shown without them.

export const HISTORY_DAYS = 30

export interface OtherOffer {
  readonly doc: ProductDocument
  /** Our tracked buy link for this offer. */
  readonly tracked: string
}

export interface PricePoint {
  readonly date: string
  readonly price: number
}

const HistoryRow = Schema.Struct({ date: Text, price: Schema.Number })

/** The lowest price of each day with an observation, over the last HISTORY_DAYS days (oldest first). */
export const priceHistory = (db: DatabaseShape, productId: string) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const since = new Date(now - HISTORY_DAYS * 86_400_000).toISOString()
    const rows = yield* db.queryAs(
      HistoryRow,
      `SELECT CAST(CAST(observed_at AT TIME ZONE 'UTC' AS DATE) AS VARCHAR) AS date,
         CAST(min(price) AS DOUBLE PRECISION) AS price
       FROM price_history WHERE product_id = $1 AND observed_at >= $2::TIMESTAMPTZ AND observed_at <= $3::TIMESTAMPTZ
       GROUP BY 1 ORDER BY 1`,
      [productId, since, new Date(now).toISOString()]
    )
    return rows.map((row): PricePoint => ({ date: row.date, price: row.price }))
  })

export const otherOffersSection = (offers: ReadonlyArray<OtherOffer>) =>
  offers.length === 0
    ? ""
    : `<section aria-labelledby="others"><h2 id="others">The same product at other stores</h2><ul class="others">` +
      offers
        .map(
          ({ doc, tracked }) =>
            `<li><a href="${escapeHtml(landingPath(doc.id))}">${escapeHtml(doc.store)}</a>: ` +
            `<strong>${escapeHtml(formatMoney(doc.price, doc.currency))}</strong>` +
            `${doc.in_stock ? "" : " (out of stock)"} · <a href="${escapeHtml(tracked)}" rel="sponsored nofollow">Buy at ${escapeHtml(doc.store)}</a></li>`
        )
        .join("") +
      `</ul></section>`

export const priceChartSection = (points: ReadonlyArray<PricePoint>, currency: string) =>
  points.length < 2
    ? ""
    : `<section aria-labelledby="history"><h2 id="history">Price over the last ${HISTORY_DAYS} days</h2>` +
      `<figure data-chart="price-history">` +
      lineChart(
        {
          id: "price-history",
          title: `Lowest price per day, last ${HISTORY_DAYS} days`,
          format: (value) => formatMoney(value, currency)
        },
        points.map((point) => ({ label: point.date, value: point.price }))
      ) +
      `</figure></section>`
