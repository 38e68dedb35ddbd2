import { Option, Redacted } from "effect"
import { mkdirSync } from "node:fs"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { documentId } from "../../readModel/documents.ts"
import { launchBrowser, onlyOwnServer, phonePage, seriousAccessibilityViolations } from "../support/browser.ts"
import { startDiscoveryService } from "../support/discoveryCatalog.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// The start page and the search results page for people, driven in a real
// headless Chromium over the real service (DuckDB + Meilisearch).
describe("start page / and search page /search", () => {
  let service: RunningService
  let browser: Browser
  beforeAll(async () => {
    service = await startDiscoveryService()
    browser = await launchBrowser()
    mkdirSync("test-artifacts", { recursive: true })
  })
  afterAll(async () => {
    await browser?.close()
    await service?.close()
  })

  const cardTexts = (page: Page) => page.locator(".card").allInnerTexts()

  it("searches without JavaScript on a phone: typed query, submitted form, cards with tracked sponsored buy links", async () => {
    const { context, page } = await phonePage(browser, service.url, { javaScriptEnabled: false })
    const start = await page.goto(`${service.url}/`)
    expect(start?.status()).toBe(200)
    expect(start?.headers()["content-type"]).toContain("text/html")
    expect(await page.locator("h1").innerText()).toMatch(/price/i)
    expect(await page.locator("a[href$='/docs']").count()).toBeGreaterThan(0)
    expect(await page.locator("a[href$='/mcp']").count()).toBe(1)
    expect(await page.locator("main").innerText()).toContain("POST /api/v1/partners/register")
    await page.screenshot({ path: "test-artifacts/start-page-mobile.png", fullPage: true })

    await page.getByLabel("What are you looking for?").fill("television")
    await page.getByRole("button", { name: "Search" }).click()
    await page.waitForURL(/\/search\?q=television$/)
    expect(await page.locator("h1").innerText()).toBe("Results for “television”")
    expect(await page.getByLabel("What are you looking for?").inputValue()).toBe("television")

    const cards = page.locator(".card")
    expect(await cards.count()).toBeGreaterThanOrEqual(3)
    for (const card of await cards.all()) {
      const buy = card.locator("a.buy")
      expect(await buy.getAttribute("href")).toMatch(new RegExp(`^${service.url}/t/f\\.[A-Za-z0-9_-]+\\.web$`))
      expect(await buy.getAttribute("rel")).toBe("sponsored nofollow")
      // the disclosure sits right under each buy link
      const disclosure = card.locator(".disclosure")
      expect(await disclosure.innerText()).toMatch(/We earn a commission if you buy through this link/)
      const [buyBox, disclosureBox] = [await buy.boundingBox(), await disclosure.boundingBox()]
      expect(disclosureBox!.y - (buyBox!.y + buyBox!.height)).toBeLessThan(24)
    }
    // the 55" TV: price and our 30-day reference price, written as people write prices
    const tv = (await cardTexts(page)).find((text) => text.includes("Vistara 55 inch"))
    expect(tv).toContain("$449.00")
    expect(tv).toMatch(/Our reference price \$649\.00 \(lowest in the 30 days before\): 30% less/)
    expect(tv).toContain("BigScreen")
    expect(await page.locator(".card img").first().getAttribute("alt")).toBe("")
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390)
    await page.screenshot({ path: "test-artifacts/search-results-mobile.png", fullPage: true })

    // a buy link is one of ours: the redirect answers it
    const tracked = await cards.first().locator("a.buy").getAttribute("href")
    const click = await fetch(tracked!, { redirect: "manual", headers: { "user-agent": "Mozilla/5.0 (test)" } })
    expect(click.status).toBe(302)
    await context.close()
  })

  it("has no serious or critical accessibility violations (axe-core) on the start, results and landing pages", async () => {
    const page = await browser.newPage()
    await onlyOwnServer(page, service.url)
    const found: Record<string, unknown> = {}
    for (const path of ["/", "/search?q=wireless%20earbuds", `/deals/${documentId("fixture:tv-55")}`]) {
      await page.goto(`${service.url}${path}`)
      found[path] = await seriousAccessibilityViolations(page)
    }
    expect(found).toEqual({
      "/": [],
      "/search?q=wireless%20earbuds": [],
      [`/deals/${documentId("fixture:tv-55")}`]: []
    })
    // the checker does catch what it should: an image without alt text and an unlabelled field
    await page.setContent(
      `<!doctype html><html lang="en"><title>broken</title><main><img src="/x.png"><input></main></html>`
    )
    expect((await seriousAccessibilityViolations(page)).map((v) => v.id)).toEqual(
      expect.arrayContaining(["image-alt", "label"])
    )
    await page.close()
  })

  it("writes pounds and euros as people do, and adds Amazon's sentence next to Amazon links", async () => {
    const page = await browser.newPage()
    await onlyOwnServer(page, service.url)
    await page.goto(`${service.url}/search?q=electric+kettle`)
    expect((await cardTexts(page))[0]).toContain("£39.00")
    await page.goto(`${service.url}/search?q=yoga+mat`)
    const mat = (await cardTexts(page)).find((text) => text.includes("Yoga Mat"))
    expect(mat).toContain("24,00\u00a0€")
    expect(mat).toContain("35,00\u00a0€")
    await page.goto(`${service.url}/search?q=AuraSound+noise+cancelling+earbuds`)
    const amazon = (await cardTexts(page)).find((text) => text.includes("AuraSound Pro"))
    expect(amazon).toContain("As an Amazon Associate I earn from qualifying purchases.")
    await page.close()
  })

  it("escapes the query and catalog values: no script runs", async () => {
    const page = await browser.newPage()
    await onlyOwnServer(page, service.url)
    let alerted = false
    page.on("dialog", async (dialog) => {
      alerted = true
      await dialog.dismiss()
    })
    const query = `<script>alert(1)</script> "lamp" & shade`
    await page.goto(`${service.url}/search?q=${encodeURIComponent(query)}`)
    expect(await page.locator("h1").innerText()).toBe(`Results for “${query}”`)
    expect(await page.getByLabel("What are you looking for?").inputValue()).toBe(query)
    await page.goto(`${service.url}/search?q=tricky+lamp`)
    expect(await page.locator(".card h2").first().innerText()).toBe(
      "<script>alert('x')</script> Tricky \"Quoted\" Lamp & Shade"
    )
    expect(await page.locator("script").count()).toBe(0)
    expect(alerted).toBe(false)
    await page.close()
  })

  it("is where the 404 page of an unknown tracking link leads", async () => {
    const page = await browser.newPage()
    await page.goto(`${service.url}/t/no-such-link`)
    await page.getByRole("link", { name: "Go to the start page" }).click()
    await page.waitForURL(`${service.url}/`)
    expect(await page.getByLabel("What are you looking for?").isVisible()).toBe(true)
    await page.close()
  })

  it("answers bad query input with a friendly HTML page, never a 5xx", async () => {
    const cases: Array<[string, number, RegExp]> = [
      ["", 400, /Type what you are looking for/],
      ["q=", 400, /Type what you are looking for/],
      ["q=%20%20", 400, /Type what you are looking for/],
      [`q=${"a".repeat(201)}`, 400, /please keep it to 200 or fewer/],
      ["q=%E0%A4%A", 200, /Results for/],
      ["q=%00%01", 200, /Results for/],
      ["q=%22%5C%27%60", 200, /Results for/],
      ["q=price%20%3C%205%20OR%201%3D1", 200, /Results for/],
      ["q=tv%20between%20900%20and%20100%20dollars", 200, /Results for/],
      // a bound beyond any price is capped (it once reached Meilisearch as 1e+23 and failed)
      ["q=under%20%2499999999999999999999999", 200, /Results for/],
      ["q=%F0%9F%8E%A7%20headphones", 200, /Results for/],
      ["q=tv&q=earbuds&tag=%3Cbad%3E", 200, /Results for “tv”/]
    ]
    for (const [query, status, text] of cases) {
      const response = await fetch(`${service.url}/search?${query}`)
      expect(response.status, query).toBe(status)
      expect(response.headers.get("content-type"), query).toContain("text/html")
      expect(await response.text(), query).toMatch(text)
    }
  })
})

describe("search page while Meilisearch is down", () => {
  let service: RunningService
  beforeAll(async () => {
    // Nothing listens on port 9 (discard) on loopback: every search is refused at once.
    service = await startService({
      meiliUrl: Option.some("http://127.0.0.1:9"),
      meiliMasterKey: Option.some(Redacted.make("unused"))
    })
  })
  afterAll(async () => {
    await service?.close()
  })

  it("serves the start page, and a friendly 503 page with Retry-After for a search", async () => {
    expect((await fetch(`${service.url}/`)).status).toBe(200)
    const response = await fetch(`${service.url}/search?q=television`)
    expect(response.status).toBe(503)
    expect(response.headers.get("retry-after")).toBe("5")
    expect(response.headers.get("content-type")).toContain("text/html")
    const body = await response.text()
    expect(body).toContain("Search is temporarily unavailable")
    expect(body).toContain(`value="television"`)
  })
})
