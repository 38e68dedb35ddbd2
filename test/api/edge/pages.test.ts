import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchBrowser } from "../../support/browser.ts"
import { startDiscoveryService } from "../../support/discoveryCatalog.ts"
import { getJson } from "../../support/http.ts"
import type { RunningService } from "../../support/TestService.ts"

// Every HTML page carries a Content-Security-Policy with frame-ancestors
// 'none' and X-Frame-Options: DENY (no other site may frame it), and no page
// or JSON text made from input carries the control characters it had.

// C0 (NUL, ESC), DEL and C1 (U+0085, U+009B), as they arrive in a query string
const CONTROLS = ["%00", "%1B", "%7F", "%C2%85", "%C2%9B"]
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/

describe("HTML pages and texts made from input", () => {
  let service: RunningService
  let landing: string
  beforeAll(async () => {
    service = await startDiscoveryService()
    landing = (await getJson(`${service.url}/api/deals`)).body.deals[0].links.landing
  })
  afterAll(() => service?.close())

  const html = { accept: "text/html" }

  it.each([
    ["the start page", "/"],
    ["search results", "/search?q=television"],
    ["a deal's landing page", "landing"],
    ["an unknown deal", "/deals/no-such-deal"],
    ["a path no route claims", "/no-such-page"],
    ["an unknown tracking link", "/t/no-such-link"],
    ["the API reference", "/docs"]
  ])("%s: CSP with frame-ancestors 'none' and X-Frame-Options DENY", async (_, path) => {
    const response = await fetch(path === "landing" ? landing : `${service.url}${path}`, { headers: html })
    expect(response.headers.get("content-type")).toContain("text/html")
    const policy = response.headers.get("content-security-policy") ?? ""
    expect(policy).toContain("frame-ancestors 'none'")
    expect(policy).toContain("default-src 'none'")
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/)
    expect(response.headers.get("x-frame-options")).toBe("DENY")
    expect(response.headers.get("x-content-type-options")).toBe("nosniff")
  })

  it.each(CONTROLS)(
    "/search?q=a%sb: no control character in the page (title, input value, heading)",
    async (control) => {
      const response = await fetch(`${service.url}/search?q=a${control}b`, { headers: html })
      const page = await response.text()
      expect(page).toContain("<title>ab – search results")
      expect(page).not.toMatch(CONTROL_CHARACTER)
    }
  )

  it.each(CONTROLS)(
    "/api/search and /api/deals with q=a%sb: no control character in the texts made from it",
    async (control) => {
      for (const path of [`/api/search?q=a${control}b`, `/api/deals?q=a${control}b`]) {
        const { status, body } = await getJson(`${service.url}${path}`)
        expect(status).toBe(200)
        expect(body.name).toContain('"ab"')
        expect(JSON.stringify([body.name, body.guidance ?? ""])).not.toMatch(CONTROL_CHARACTER)
      }
    }
  )

  describe("the API reference under its policy, in a browser", () => {
    let browser: Browser
    beforeAll(async () => {
      browser = await launchBrowser()
    })
    afterAll(() => browser?.close())

    it("renders with its two inline scripts allowed and nothing refused", async () => {
      const context = await browser.newContext()
      const page = await context.newPage()
      const refused: Array<string> = []
      page.on("console", (message) => {
        if (/Content Security Policy/i.test(message.text())) refused.push(message.text())
      })
      await page.route(
        (url) => !url.href.startsWith(service.url),
        (route) => route.abort()
      )
      expect((await page.goto(`${service.url}/docs`))?.status()).toBe(200)
      await expect
        .poll(async () => page.locator("#api-reference-container *").count(), { timeout: 15_000 })
        .toBeGreaterThan(10)
      await expect.poll(() => page.getByText("/api/search").count(), { timeout: 15_000 }).toBeGreaterThan(0)
      expect(refused.filter((text) => /script/i.test(text))).toEqual([])
      await context.close()
    })
  })
})
