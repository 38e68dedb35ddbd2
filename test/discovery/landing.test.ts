import { mkdirSync } from "node:fs"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { documentId } from "../../readModel/documents.ts"
import { launchBrowser, onlyOwnServer, phonePage } from "../support/browser.ts"
import { startDiscoveryService } from "../support/discoveryCatalog.ts"
import { getJson } from "../support/http.ts"
import type { RunningService } from "../support/TestService.ts"

// The deal landing page, rendered by a real headless Chromium (shipped in an npm package).
describe("deal landing page /deals/{id}", () => {
  let service: RunningService
  let browser: Browser
  beforeAll(async () => {
    service = await startDiscoveryService()
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await service?.close()
  })

  it("renders on a phone: title, image with alt, prices, store, disclosure next to a sponsored tracked buy link", async () => {
    const { body } = await getJson(`${service.url}/api/deals?q=television&tag=widget-1`)
    const deal = body.deals[0]
    const { context, page } = await phonePage(browser, service.url)
    const response = await page.goto(`${deal.links.landing}?tag=widget-1`)
    expect(response?.status()).toBe(200)
    expect(await page.locator("h1").innerText()).toBe(deal.title)
    expect(await page.locator("img").getAttribute("alt")).toBe(deal.title)
    const text = await page.locator("main").innerText()
    expect(text).toContain("$449.00")
    expect(text).toContain("$649.00")
    expect(text).toContain(`observed ${deal.price.originalPriceObservedAt}`)
    expect(text).toContain("BigScreen")
    const buy = page.locator("a#buy")
    expect(await buy.getAttribute("href")).toBe(deal.links.tracked)
    expect(await buy.getAttribute("rel")).toBe("sponsored nofollow")
    const disclosure = page.locator("#disclosure")
    expect(await disclosure.isVisible()).toBe(true)
    expect(await disclosure.innerText()).toMatch(/earn a commission/)
    // the disclosure sits right under the button, both inside the first screen of a phone
    const [buyBox, disclosureBox] = [await buy.boundingBox(), await disclosure.boundingBox()]
    expect(disclosureBox!.y - (buyBox!.y + buyBox!.height)).toBeLessThan(40)
    // no horizontal scrolling on a 390px-wide screen
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390)
    mkdirSync("test-artifacts", { recursive: true })
    await page.screenshot({ path: "test-artifacts/landing-page-mobile.png", fullPage: true })
    await context.close()
  })

  it("escapes everything from the catalog", async () => {
    const id = documentId("fixture:xss")
    const page = await browser.newPage()
    await onlyOwnServer(page, service.url)
    let alerted = false
    page.on("dialog", async (dialog) => {
      alerted = true
      await dialog.dismiss()
    })
    await page.goto(`${service.url}/deals/${id}`)
    expect(await page.locator("h1").innerText()).toBe("<script>alert('x')</script> Tricky \"Quoted\" Lamp & Shade")
    expect(await page.locator("script").count()).toBe(0)
    expect(alerted).toBe(false)
    const html = await (await fetch(`${service.url}/deals/${id}`)).text()
    expect(html).not.toContain("<script>")
    expect(html).toContain("Odd &lt;Shop&gt;")
    await page.close()
  })

  it("adds the Amazon Associates sentence on Amazon deals", async () => {
    const html = await (await fetch(`${service.url}/deals/${documentId("fixture:eb-premium")}`)).text()
    expect(html).toContain("As an Amazon Associate I earn from qualifying purchases.")
  })

  it("answers an unknown or malformed id with a 404 HTML page", async () => {
    for (const id of [documentId("fixture:nope"), "not*valid", "%3Cscript%3E"]) {
      const response = await fetch(`${service.url}/deals/${id}`)
      expect(response.status, id).toBe(404)
      expect(response.headers.get("content-type")).toContain("text/html")
      expect(await response.text()).toContain("Deal not found")
    }
  })
})
