import type { ProductDocument } from "../readModel/documents.ts"
import { escapeHtml, htmlDocument } from "./pageShell.ts"
import { availabilityText, disclosureFor, formatMoney, hasVerifiedSaving } from "./present.ts"

// The deal landing page: plain server-rendered HTML, every value escaped
// (pageShell.ts), readable on a phone and with WCAG AA contrast.

const STYLE = `
  img{display:block;max-width:100%;height:auto;max-height:16rem;margin:0 auto 1rem;object-fit:contain}
  .price{font-size:1.75rem;font-weight:700;margin:0}
  .reference,.meta{margin:.25rem 0;color:#333}
  .buy{margin:1.25rem 0;padding:1rem;border:1px solid #ccc;border-radius:.5rem;background:#f7f7f7}
  .buy a{display:block;text-align:center;padding:.875rem 1rem;border-radius:.375rem;background:#0b5394;color:#fff;
    font-weight:700;text-decoration:none;font-size:1.125rem}
  .buy a:focus{outline:3px solid #f1c232;outline-offset:2px}
  .disclosure{margin:.75rem 0 0;font-size:.9375rem}
  .description{margin-top:1.5rem}
`

const page = (title: string, body: string) => htmlDocument({ title, style: STYLE, body: `<main>\n${body}\n</main>` })

export const landingPage = (doc: ProductDocument, trackedUrl: string): string => {
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
      ? `<img src="${escapeHtml(doc.image)}" alt="${escapeHtml(doc.title)}" width="480" height="480">`
      : ""
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
