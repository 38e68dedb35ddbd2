import jsQRModule from "jsqr"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { PNG } from "pngjs"
import { readFileSync } from "node:fs"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { accessibilityViolations, launchBrowser, onlyOwnServer } from "../../support/browser.ts"
import { PROGRAMS, programId } from "../../support/catalogFixture.ts"
import { getJson } from "../../support/http.ts"
import { createPartnerHistory, type PartnerHistory, parseCsv } from "../../support/partnerHistory.ts"
import { startService, type RunningService } from "../../support/TestService.ts"

// The partner dashboard in a real browser: sign in with the API key, the
// charts and totals equal partners/me, the QR code decodes to the tracking
// URL, the CSV download sums to partners/me, links are renamed and disabled
// through the forms, a forged post from another site is refused, sign-out
// ends the session. axe-core finds no violation on either page.

// jsqr is CommonJS typed as an ES module: its default export is the module itself at run time.
const jsQR = ((jsQRModule as unknown as { default?: typeof jsQRModule.default }).default ??
  jsQRModule) as unknown as typeof jsQRModule.default

const decodeQr = (png: Buffer) => {
  const image = PNG.sync.read(png)
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data
}

describe("the partner dashboard in a browser", () => {
  let service: RunningService
  let history: PartnerHistory
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let me: any

  beforeAll(async () => {
    service = await startService()
    history = await createPartnerHistory(service)
    me = (await getJson(`${service.url}/api/v1/partners/me`, { authorization: `Bearer ${history.key}` })).body
    browser = await launchBrowser()
    context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1100, height: 900 } })
    page = await context.newPage()
    await onlyOwnServer(page, service.url)
  })
  afterAll(async () => {
    await browser?.close()
    await service?.close()
  })

  it("shows the sign-in form without a session, accessible, and refuses a wrong key with 401", async () => {
    const response = await page.goto(`${service.url}/partner`)
    expect(response?.status()).toBe(200)
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Partner dashboard")
    expect(await accessibilityViolations(page)).toEqual([])
    await page.getByLabel("API key").fill(`ak_${"x".repeat(43)}`)
    const [wrong] = await Promise.all([
      page.waitForResponse(/\/partner\/sign-in$/),
      page.getByRole("button", { name: "Sign in" }).click()
    ])
    expect(wrong.status()).toBe(401)
    expect(await page.getByRole("alert").textContent()).toContain("unknown")
  })

  it("signs in with the API key: a session cookie that is HttpOnly and SameSite=Strict", async () => {
    await page.getByLabel("API key").fill(history.key)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.waitForURL(/\/partner\?done=signed-in/)
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Your business")
    const cookie = (await context.cookies()).find((c) => c.name === "aff_session")
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/partner", secure: false })
    expect(cookie?.value).not.toContain(history.key.slice(3))
  })

  it("has no accessibility violation (axe-core, every rule and impact)", async () => {
    expect(await accessibilityViolations(page)).toEqual([])
  })

  it("shows a copy button per link when scripts run (allowed by its hash, nothing refused)", async () => {
    const card = page.locator(`article[data-tracking-id="${history.links[0].tracking_id}"]`)
    expect(await card.locator("button[data-copy]").isVisible()).toBe(true)
    expect(await card.locator("button[data-copy]").getAttribute("data-copy")).toBe(history.links[0].tracking_url)
  })

  it("shows the totals and four charts with the right totals, money with its currency and two decimals", async () => {
    const total = (name: string) => page.locator(`[data-totals] [data-total="${name}"]`).textContent()
    expect(await total("clicks")).toBe(String(me.totals.clicks))
    expect(await total("unique_clicks")).toBe(String(me.totals.unique_clicks))
    expect(await total("conversions")).toBe(String(me.totals.conversions.total))
    const earnings = `${Number(me.totals.revenue.total).toFixed(2)} ${me.reporting_currency}`
    expect(await total("earnings")).toBe(earnings)
    expect(earnings).toBe("11.25 USD") // 7.00 + 3.50 + 1.25 - 0.50 (a correction)

    const chartTotal = (id: string) => page.locator(`figure[data-chart="${id}"]`).getAttribute("data-total")
    const daysSum = (value: (day: any) => number) => me.days.reduce((sum: number, day: any) => sum + value(day), 0)
    expect(await chartTotal("clicks")).toBe(String(daysSum((day) => day.clicks)))
    expect(await chartTotal("unique-clicks")).toBe(String(daysSum((day) => day.unique_clicks)))
    expect(await chartTotal("conversions")).toBe(String(daysSum((day) => day.conversions.total)))
    expect(await chartTotal("earnings")).toBe(earnings)
    for (const id of ["clicks", "unique-clicks", "conversions", "earnings"]) {
      const svg = page.locator(`figure[data-chart="${id}"] svg[role="img"]`)
      expect(await svg.count()).toBe(1)
      expect(await svg.locator("rect").count()).toBe(30)
    }
  })

  it("shows the figures per programme under the programmes' names, not their ids", async () => {
    const table = page.locator("table").first()
    for (const link of history.links) {
      const program = PROGRAMS.find((p) => programId(p) === link.program_id)!
      expect(await table.getByRole("rowheader", { name: program.name!, exact: true }).count()).toBe(1)
    }
    expect(await table.textContent()).not.toContain(history.links[0].program_id)
  })

  it("shows a QR code per link that decodes to its tracking URL, inline and as the PNG download", async () => {
    const card = page.locator(`article[data-tracking-id="${history.links[0].tracking_id}"]`)
    const inline = await card.locator(".qr svg").screenshot()
    expect(decodeQr(inline)).toBe(history.links[0].tracking_url)
    const png = await page.request.get(`${service.url}/partner/links/${history.links[0].tracking_id}/qr.png`)
    expect(png.headers()["content-type"]).toBe("image/png")
    expect(decodeQr(await png.body())).toBe(history.links[0].tracking_url)
  })

  it("downloads a CSV whose sums match partners/me", async () => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: /Download CSV/ }).click()
    ])
    const [header, ...rows] = parseCsv(readFileSync((await download.path())!, "utf8"))
    const column = (row: Array<string>, name: string) => Number(row[header.indexOf(name)])
    const clicks = rows.filter((row) => row[0] === "clicks")
    expect(clicks.reduce((sum, row) => sum + column(row, "clicks"), 0)).toBe(me.totals.clicks)
    expect(clicks.reduce((sum, row) => sum + column(row, "unique_clicks"), 0)).toBe(me.totals.unique_clicks)
    const sales = rows.filter((row) => row[0] === "conversion" && row[header.indexOf("kind")] === "sale")
    expect(sales.length).toBe(me.totals.conversions.total)
  })

  it("names a link and disables it through the forms; the disabled link answers 410", async () => {
    const link = history.links[1]
    const card = page.locator(`article[data-tracking-id="${link.tracking_id}"]`)
    await card.getByLabel("Name").fill("Coat review")
    await card.getByRole("button", { name: "Save name" }).click()
    await page.waitForURL(/done=rename/)
    const renamed = page.locator(`article[data-tracking-id="${link.tracking_id}"]`)
    expect(await renamed.getByRole("heading").textContent()).toContain("Coat review")
    await renamed.getByRole("button", { name: "Disable Coat review" }).click()
    await page.waitForURL(/done=disable/)
    expect(await page.locator(`article[data-tracking-id="${link.tracking_id}"] .state`).textContent()).toBe("Disabled")
    expect((await fetch(link.tracking_url, { redirect: "manual" })).status).toBe(410)
    expect(await accessibilityViolations(page)).toEqual([])
  })

  describe("a forged form post", () => {
    let attacker: Server
    let attackerUrl: string
    beforeAll(async () => {
      // Another site (another origin) serving a form that posts to the dashboard: it cannot know the CSRF token.
      const target = `${service.url}/partner/links/${history.links[0].tracking_id}`
      attacker = createServer((_, res) => {
        res.writeHead(200, { "content-type": "text/html" })
        res.end(
          `<!doctype html><form id="f" method="post" action="${target}"><input name="action" value="delete">` +
            `<input name="csrf" value="guessed"></form><script>document.getElementById("f").submit()</script>`
        )
      })
      await new Promise<void>((resolve) => attacker.listen(0, "localhost", resolve))
      attackerUrl = `http://localhost:${(attacker.address() as AddressInfo).port}/`
    })
    afterAll(() => new Promise<void>((resolve) => attacker.close(() => resolve())))

    it("from another site is refused and deletes nothing", async () => {
      const forged = await context.newPage()
      const [answer] = await Promise.all([forged.waitForResponse(/\/partner\/links\//), forged.goto(attackerUrl)])
      expect([401, 403]).toContain(answer.status())
      await forged.close()
      await page.goto(`${service.url}/partner`)
      expect(await page.locator(`article[data-tracking-id="${history.links[0].tracking_id}"]`).count()).toBe(1)
    })

    it("from our origin without the session's token, or with a wrong one, is refused 403", async () => {
      const cookie = (await context.cookies()).find((c) => c.name === "aff_session")!
      for (const body of ["action=delete", "action=delete&csrf=wrong"]) {
        const response = await fetch(`${service.url}/partner/links/${history.links[0].tracking_id}`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie: `aff_session=${cookie.value}` },
          body
        })
        expect(response.status).toBe(403)
        expect(((await response.json()) as any).error.details).toEqual({ field: "csrf" })
      }
    })
  })

  it("works without JavaScript: sign-in and the forms; the copy buttons stay hidden, the link is a field to copy", async () => {
    const plain = await browser.newContext({ javaScriptEnabled: false })
    const noScript = await plain.newPage()
    await onlyOwnServer(noScript, service.url)
    await noScript.goto(`${service.url}/partner`)
    await noScript.getByLabel("API key").fill(history.key)
    await noScript.getByRole("button", { name: "Sign in" }).click()
    await noScript.waitForURL(/done=signed-in/)
    const link = history.links[2]
    const card = noScript.locator(`article[data-tracking-id="${link.tracking_id}"]`)
    expect(await card.locator("button[data-copy]").isVisible()).toBe(false)
    expect(await card.getByLabel("Tracking link", { exact: true }).inputValue()).toBe(link.tracking_url)
    await card.getByLabel("Name").fill("Arc lamp")
    await card.getByRole("button", { name: "Save name" }).click()
    await noScript.waitForURL(/done=rename/)
    expect(await noScript.locator(`article[data-tracking-id="${link.tracking_id}"] h3`).textContent()).toContain(
      "Arc lamp"
    )
    expect(await card.locator("button[data-copy]").count()).toBe(1)
    await plain.close()
  })

  it("signs out: the sign-in form again, and the old session cookie opens nothing", async () => {
    const old = (await context.cookies()).find((c) => c.name === "aff_session")!.value
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL(/done=signed-out/)
    expect(await page.getByLabel("API key").count()).toBe(1)
    expect((await context.cookies()).find((c) => c.name === "aff_session")).toBeUndefined()
    const replay = await fetch(`${service.url}/partner`, { headers: { cookie: `aff_session=${old}` } })
    expect(await replay.text()).toContain('name="api_key"')
  })
})
