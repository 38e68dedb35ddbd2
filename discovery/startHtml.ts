import type { DealOffer } from "../readModel/modelDocuments.ts"
import { escapeHtml, htmlDocument, IMAGE_PLACEHOLDER } from "./pageShell.ts"
import {
  AMAZON_DISCLOSURE,
  availabilityText,
  BASE_DISCLOSURE,
  formatMoney,
  hasVerifiedSaving,
  isAmazon
} from "./present.ts"

// The start page and the search results page for people: a GET form that
// works without JavaScript, results as cards with the disclosure next to
// every tracked buy link. Every catalog value is escaped.

const STYLE = `
  a{color:#0b5394}
  a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid #1a1a1a;outline-offset:2px}
  header,footer{background:#f2f5f8;padding:.75rem 1rem}
  header a{font-weight:700;text-decoration:none;color:#1a1a1a}
  footer{margin-top:2rem;font-size:.9375rem}
  main{max-width:64rem}
  .intro{max-width:44rem}
  form{margin:1rem 0 1.5rem;max-width:44rem}
  label{display:block;font-weight:700;margin-bottom:.375rem}
  .field{display:flex;gap:.5rem}
  input[type=search]{flex:1;min-width:0;font:inherit;padding:.625rem .75rem;border:2px solid #555;border-radius:.375rem}
  input::placeholder{color:#595959}
  button{font:inherit;font-weight:700;padding:.625rem 1rem;border:0;border-radius:.375rem;background:#0b5394;color:#fff}
  .hint{margin:.375rem 0 0;font-size:.9375rem;color:#333}
  .notice{padding:.75rem 1rem;border-left:4px solid #0b5394;background:#f2f5f8}
  .problem{border-left-color:#b3261e}
  .results{list-style:none;padding:0;display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(18rem,1fr))}
  .card{display:grid;grid-template-columns:5.5rem 1fr;gap:.25rem .75rem;align-content:start;padding:.875rem;
    border:1px solid #ccc;border-radius:.5rem}
  .card h2,.card h3{font-size:1.0625rem;line-height:1.3;margin:0}
  .card .photo{grid-row:span 4;width:5.5rem;height:5.5rem;background:#eef1f4 url("${IMAGE_PLACEHOLDER}") center/70% no-repeat;border-radius:.25rem}
  .card .photo img{width:100%;height:100%;object-fit:contain}
  .categories{display:flex;flex-wrap:wrap;gap:.5rem 1rem;padding:0;list-style:none}
  .card p{margin:0}
  .price{font-size:1.25rem;font-weight:700}
  .reference,.meta{font-size:.9375rem;color:#333}
  .buy,.disclosure{grid-column:1/-1}
  .buy{display:block;margin-top:.5rem;text-align:center;padding:.75rem 1rem;border-radius:.375rem;background:#0b5394;
    color:#fff;font-weight:700;text-decoration:none}
  .disclosure{font-size:.875rem;color:#333}
  .visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
  code{font-size:.9375rem;overflow-wrap:anywhere}
`

/** Where the start page points developers and partners (absolute, on this service). */
export interface ServiceLinks {
  readonly docs: string
  readonly mcp: string
}

const TITLE = "Product search with honest prices"

const searchForm = (query: string) => `<form action="/search" method="get" role="search">
<label for="q">What are you looking for?</label>
<div class="field">
<input type="search" id="q" name="q" value="${escapeHtml(query)}" maxlength="200" required autocomplete="off"
  aria-describedby="q-hint" placeholder="wireless earbuds under $100">
<button type="submit">Search</button>
</div>
<p class="hint" id="q-hint">Say what you want in your own words: a product, a brand, a price limit, who it is for.</p>
</form>`

const layout = (title: string, main: string, indexable = false) =>
  htmlDocument({
    title,
    style: STYLE,
    indexable,
    body: `<header><a href="/">${escapeHtml(TITLE)}</a></header>
<main>
${main}
</main>
<footer><p>${escapeHtml(BASE_DISCLOSURE)}</p></footer>`
  })

/** What the start page shows above the developer section: a few verified deals and the categories they are in. */
export interface StartHighlights {
  readonly deals: ReadonlyArray<{ readonly doc: DealOffer; readonly links: CardLinks }>
  readonly categories: ReadonlyArray<string>
}

const highlightsSection = ({ deals, categories }: StartHighlights) =>
  (deals.length === 0
    ? ""
    : `<section aria-labelledby="deals"><h2 id="deals">Verified deals</h2>
<p class="intro">Cheaper today than the lowest price we saw in the 30 days before.</p>
<ul class="results">
${deals.map(({ doc, links }, i) => card(doc, links, i + 1, 3)).join("\n")}
</ul></section>`) +
  (categories.length === 0
    ? ""
    : `<section aria-labelledby="categories"><h2 id="categories">Browse by category</h2><ul class="categories">` +
      categories
        .map((category) => `<li><a href="/search?q=${encodeURIComponent(category)}">${escapeHtml(category)}</a></li>`)
        .join("") +
      `</ul></section>`)

export const startPage = (
  links: ServiceLinks,
  problem?: string,
  highlights: StartHighlights = { deals: [], categories: [] }
) =>
  layout(
    TITLE,
    `<h1>Find a product and see whether its price is really low</h1>
<p class="intro">We search products from many online stores. Each result shows today's price next to our reference
price: the lowest price we saw in the 30 days before, so a discount is only called one when it is real.</p>
${problem === undefined ? "" : `<p class="notice problem" role="alert">${escapeHtml(problem)}</p>`}
${searchForm("")}
${highlightsSection(highlights)}
<section aria-labelledby="builders">
<h2 id="builders">For developers, AI assistants and partners</h2>
<ul>
<li><a href="${escapeHtml(links.docs)}">API documentation</a>: the deals feed, intent search and the affiliate link service.</li>
<li>MCP server for AI assistants (Streamable HTTP): <a href="${escapeHtml(links.mcp)}"><code>${escapeHtml(links.mcp)}</code></a></li>
<li>Become a partner and earn from your links: register with <code>POST /api/v1/partners/register</code>
(see the <a href="${escapeHtml(links.docs)}">API documentation</a>) or run <code>aff init</code> with the partner CLI;
then follow your clicks and earnings in the <a href="/partner">partner dashboard</a>.</li>
</ul>
</section>`,
    true
  )

/** Where a result card links: our landing page and the tracked buy link. */
export interface CardLinks {
  readonly landing: string
  readonly tracked: string
}

const reference = (doc: DealOffer) => {
  if (doc.reference_price === null) return "No earlier price history yet."
  const low = escapeHtml(formatMoney(doc.reference_price, doc.currency))
  return hasVerifiedSaving(doc)
    ? `Our reference price <s>${low}</s> (lowest in the 30 days before): ${doc.discount}% less.`
    : `Not a discount: the lowest price in the 30 days before was ${low}.`
}

const card = (doc: DealOffer, links: CardLinks, index: number, level = 2, converted?: string) => {
  const titleId = `${level === 2 ? "result" : "deal"}-${index}`
  const disclosure = isAmazon(doc)
    ? `We earn a commission if you buy through this link. ${AMAZON_DISCLOSURE}`
    : "We earn a commission if you buy through this link, at no extra cost to you."
  return `<li class="card">
<div class="photo">${doc.image === null ? "" : `<img src="${escapeHtml(doc.image)}" alt="" width="88" height="88" loading="lazy">`}</div>
<h${level} id="${titleId}"><a href="${escapeHtml(links.landing)}">${escapeHtml(doc.title)}</a></h${level}>
<p class="price">${escapeHtml(formatMoney(doc.price, doc.currency))}</p>${converted === undefined ? "" : `\n<p class="converted">${escapeHtml(converted)}</p>`}
<p class="reference">${reference(doc)}</p>
<p class="meta">${escapeHtml(doc.store)} · ${escapeHtml(availabilityText(doc.availability))}</p>
<a class="buy" href="${escapeHtml(links.tracked)}" rel="sponsored nofollow">Buy at ${escapeHtml(doc.store)}<span class="visually-hidden">: ${escapeHtml(doc.title)}</span></a>
<p class="disclosure">${escapeHtml(disclosure)}</p>
</li>`
}

export interface ResultsView {
  readonly query: string
  /** How the search read the phrase, e.g. "price at most 100 USD". */
  readonly interpretation: string
  readonly includesOutOfStock: boolean
  readonly results: ReadonlyArray<{
    readonly doc: DealOffer
    readonly links: CardLinks
    /** The price converted as the order converted it (no market, several currencies), said beside the price. */
    readonly converted?: string | undefined
  }>
  /** Products matching across all pages, and how many this page skipped. */
  readonly total: number
  readonly offset: number
  /** "cheapest first" for price words, else "most relevant first". */
  readonly order: string
  /** The previous and next pages' addresses, where there are such pages. */
  readonly previous?: string | undefined
  readonly next?: string | undefined
  /** When nothing matched: the ways forward, each a search the catalog answers. */
  readonly suggestions: ReadonlyArray<{ readonly text: string; readonly href: string }>
}

const pager = (previous: string | undefined, next: string | undefined) =>
  previous === undefined && next === undefined
    ? ""
    : `<nav class="pager" aria-label="More results">${
        previous === undefined ? "" : `<a rel="prev" href="${escapeHtml(previous)}">Previous results</a>`
      }${previous !== undefined && next !== undefined ? " · " : ""}${
        next === undefined ? "" : `<a rel="next" href="${escapeHtml(next)}">Next results</a>`
      }</nav>`

export const resultsPage = (view: ResultsView) => {
  const { query, interpretation, includesOutOfStock, results, total, offset, suggestions } = view
  const ways =
    suggestions.length === 0
      ? ""
      : `\n<ul class="suggestions" aria-label="Ways forward">\n${suggestions
          .map((s) => `<li><a href="${escapeHtml(s.href)}">${escapeHtml(s.text)}</a></li>`)
          .join("\n")}\n</ul>`
  const shown = offset === 0 ? `${results.length} of ${total}` : `${offset + 1}–${offset + results.length} of ${total}`
  const count =
    results.length === 0
      ? `<p class="notice" role="status">${
          suggestions.length === 0
            ? "Nothing matched. Try fewer words, another product name or a wider price range."
            : "Nothing matched. These searches find products:"
        }</p>${ways}`
      : `<p role="status">${shown} result${total === 1 ? "" : "s"}, ${escapeHtml(view.order)}.` +
        `${includesOutOfStock ? " Nothing in stock matched, so out-of-stock products are shown." : ""}</p>`
  return layout(
    `${query} – search results`,
    `${searchForm(query)}
<h1>Results for “${escapeHtml(query)}”</h1>
<p class="meta">We read your search as: ${escapeHtml(interpretation)}.</p>
${count}
${results.length === 0 ? "" : `<ol class="results" start="${offset + 1}">\n${results.map(({ doc, links, converted }, i) => card(doc, links, offset + i + 1, 2, converted)).join("\n")}\n</ol>`}
${pager(view.previous, view.next)}`
  )
}

/** Input we cannot search for (too long): said plainly, with the form to try again. */
export const badSearchPage = (query: string, problem: string) =>
  layout(
    "Please change your search",
    `${searchForm(query)}
<h1>Please change your search</h1>
<p class="notice problem" role="alert">${escapeHtml(problem)}</p>`
  )

export const searchUnavailablePage = (query: string) =>
  layout(
    "Search is temporarily unavailable",
    `${searchForm(query)}
<h1>Search is temporarily unavailable</h1>
<p class="notice problem" role="alert">Our product search is not answering right now. Please try again in a few seconds.</p>`
  )
