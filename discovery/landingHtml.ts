import type { ProductDocument } from "../readModel/documents.ts"
import { escapeHtml, htmlDocument, IMAGE_PLACEHOLDER } from "./pageShell.ts"
import { availabilityText, disclosureFor, formatMoney, hasVerifiedSaving } from "./present.ts"
import { type OtherOffer, otherOffersSection, type PricePoint, priceChartSection } from "./landingExtras.ts"

// The deal landing page: plain server-rendered HTML, every value escaped
// (pageShell.ts), readable on a phone and with WCAG AA contrast.

const STYLE = `
  a{color:#0b5394}
  header{background:#f2f5f8;padding:.75rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1rem;justify-content:space-between}
  header a{font-weight:700;text-decoration:none;color:#1a1a1a}
  header nav a{color:#0b5394}
  .photo{display:block;max-width:30rem;aspect-ratio:4/3;margin:0 auto 1rem;background:#eef1f4 url("${IMAGE_PLACEHOLDER}") center/60% no-repeat;border-radius:.5rem}
  .photo img{display:block;width:100%;height:100%;object-fit:contain}
  .others li{margin:.25rem 0}
  figure{margin:0}
  .price{font-size:1.75rem;font-weight:700;margin:0}
  .reference,.meta{margin:.25rem 0;color:#333}
  .buy{margin:1.25rem 0;padding:1rem;border:1px solid #ccc;border-radius:.5rem;background:#f7f7f7}
  .buy a{display:block;text-align:center;padding:.875rem 1rem;border-radius:.375rem;background:#0b5394;color:#fff;
    font-weight:700;text-decoration:none;font-size:1.125rem}
  .buy a:focus{outline:3px solid #f1c232;outline-offset:2px}
  .disclosure{margin:.75rem 0 0;font-size:.9375rem}
  .description{margin-top:1.5rem}
`

/** The site header, with the way back to the search. */
const HEADER = `<header><a href="/">Product search with honest prices</a><nav aria-label="Site"><a href="/">Back to search</a></nav></header>`

const page = (title: string, body: string) =>
  htmlDocument({ title, style: STYLE, body: `${HEADER}\n<main>\n${body}\n</main>` })

/** What the landing page shows beside the offer, when it could be read. */
export interface LandingExtras {
  readonly otherOffers: ReadonlyArray<OtherOffer>
  readonly priceHistory: ReadonlyArray<PricePoint>
}

export const landingPage = (
  doc: ProductDocument,
  trackedUrl: string,
  extras: LandingExtras = { otherOffers: [], priceHistory: [] }
): string => {
  const disclosure = disclosureFor([doc])
  const reference =
    doc.reference_price === null
      ? `<p class="reference">We have no earlier price history for this product yet.</p>`
      : hasVerifiedSaving(doc)
        ? `<p class="reference">Our reference price: <s>${escapeHtml(formatMoney(doc.reference_price, doc.currency))}</s>, ` +
          `the lowest we saw in the 30 days before this price (observed ${escapeHtml(doc.reference_observed_at ?? "recently")}). ` +
          `You save ${doc.discount}%.</p>`
        : `<p class="reference">The lowest price we saw in the 30 days before this price was ` +
          `${escapeHtml(formatMoney(doc.reference_price, doc.currency))} (observed ${escapeHtml(doc.reference_observed_at ?? "recently")}): ` +
          `today's price is not a discount.</p>`
  const image =
    doc.image !== null
      ? `<div class="photo"><img src="${escapeHtml(doc.image)}" alt="${escapeHtml(doc.title)}" width="480" height="360"></div>`
      : `<div class="photo" role="img" aria-label="No picture of this product"></div>`
  const description =
    doc.description.trim() === ""
      ? ""
      : `<section class="description" aria-labelledby="about"><h2 id="about">About this product</h2><p>${escapeHtml(doc.description)}</p></section>`
  const body = `
<article aria-labelledby="title">
<h1 id="title">${escapeHtml(doc.title)}</h1>
${image}
<p class="price">${escapeHtml(formatMoney(doc.price, doc.currency))}</p>
${reference}
<p class="meta">Store: <strong>${escapeHtml(doc.store)}</strong>${doc.brand ? ` · Brand: ${escapeHtml(doc.brand)}` : ""}</p>
<p class="meta">Availability: ${escapeHtml(availabilityText(doc.availability))} · Price checked ${escapeHtml(doc.price_checked_at.slice(0, 10))}</p>
<section class="buy" aria-label="Buy">
<a href="${escapeHtml(trackedUrl)}" rel="sponsored nofollow" id="buy">Buy at ${escapeHtml(doc.store)}</a>
<p class="disclosure" id="disclosure" role="note">${escapeHtml(disclosure)}</p>
</section>
<section aria-labelledby="checks">
<h2 id="checks">Before you buy</h2>
<ul>
<li>Confirm the price at checkout; prices change.</li>
<li>Check shipping costs, delivery date and the store's return policy.</li>
<li>No coupon code is confirmed for this deal.</li>
</ul>
</section>
${otherOffersSection(extras.otherOffers)}
${priceChartSection(extras.priceHistory, doc.currency)}
${description}
</article>`
  return page(`${doc.title} – ${formatMoney(doc.price, doc.currency)}`, body)
}

export const notFoundPage = () =>
  page(
    "Deal not found",
    `<h1>Deal not found</h1>
<p>This deal does not exist or is no longer available. Prices and stock change often.</p>
<p><a href="/">Search for products</a> or see <a href="/api/deals">current deals (JSON)</a>.</p>`
  )

/** An id no deal can have (longer than Meilisearch's 511-byte document ids). */
export const badIdPage = (maxLength: number) =>
  page(
    "Not a deal id",
    `<h1>Not a deal id</h1>
<p>The id in this address (parameter <code>id</code>) is longer than ${maxLength} characters, so no deal has it.</p>
<p><a href="/">Search for products</a></p>`
  )

export const unavailablePage = () =>
  page("Temporarily unavailable", `<h1>Temporarily unavailable</h1><p>Please try again in a few seconds.</p>`)
