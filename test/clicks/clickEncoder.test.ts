import { describe, expect, it } from "vitest"
import type { StoredClick } from "../../clicks/ClickJournal.ts"
import { ClickEncoder } from "../../clicks/ClickEncoder.ts"
import { ClickPage } from "../../clicks/ClickPage.ts"
import { botVerdict } from "../../domain/clicks/botVerdict.ts"
import { UNIQUE_WINDOW_MS, UniqueWindow } from "../../domain/clicks/UniqueWindow.ts"
import { dropCredentialParams } from "../../domain/links/credentialParams.ts"

// The worker writes each journal line field by field (no object, the user
// agent's part built once per agent): the lines must be the very bytes
// JSON.stringify gave for the StoredClick the worker built before, so DuckDB,
// PostgreSQL and a replay read the same clicks (bot verdict, IP hash,
// uniqueness, partner, referrer without credentials).

const T0 = Date.parse("2026-03-10T09:00:00Z")
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"

interface Raw {
  readonly at: number
  readonly partner: number | null
  readonly id: string
  readonly tag: string
  readonly ip: string
  readonly ua?: string
  readonly referrer?: string
}

const clicks: ReadonlyArray<Raw> = [
  { at: T0, partner: 7, id: "ULpjnsUt6MBn", tag: "newsletter", ip: "203.0.113.9", ua: CHROME },
  // the same visitor and link again within the hour: a repeat
  { at: T0 + 60_000, partner: 7, id: "ULpjnsUt6MBn", tag: "newsletter", ip: "203.0.113.9", ua: CHROME },
  { at: T0 + 61_000, partner: null, id: "f.B00X4WHP5E.amazon-us", tag: "", ip: "203.0.113.9", ua: CHROME },
  // a bot never takes a human's unique slot; an empty user agent is a bot
  { at: T0 + 62_000, partner: 3, id: "abc_DEF-123", tag: "t", ip: "198.51.100.1", ua: "Slackbot-LinkExpanding 1.0" },
  { at: T0 + 63_000, partner: 3, id: "abc_DEF-123", tag: "t", ip: "198.51.100.2" },
  { at: T0 + 64_000, partner: 3, id: "abc_DEF-123", tag: "t", ip: "198.51.100.3", ua: "curl/8.5.0" },
  // texts JSON must escape (quotes, backslashes, tabs, control and latin1 characters)
  {
    at: T0 + 65_000,
    partner: 0,
    id: "q",
    tag: 'a"b\\c',
    ip: "2001:db8::1",
    ua: 'Mozilla/5.0 "quoted" \\ back\tslash \u0001 caf\u00e9 \u00ff',
    referrer: 'https://ref.example/a,"b"?x=\u00e9'
  },
  // a Referer's credentials are never stored
  {
    at: T0 + 66_000,
    partner: 12,
    id: "q",
    tag: "x",
    ip: "192.0.2.77",
    ua: CHROME,
    referrer: "https://mail.example/inbox?session=abc123&page=2&email=a%40b.example"
  },
  // an hour after the window's start the same visitor counts again
  { at: T0 + UNIQUE_WINDOW_MS + 1, partner: 7, id: "ULpjnsUt6MBn", tag: "newsletter", ip: "203.0.113.9", ua: CHROME }
]

const pageOf = (raw: ReadonlyArray<Raw>) => {
  const page = new ClickPage()
  for (const c of raw) page.append(c.at, c.partner, c.id, c.tag, c.ip, c.ua, c.referrer)
  return page
}

/** The line as the worker wrote it before: JSON.stringify of the StoredClick. */
const expectedLines = (raw: ReadonlyArray<Raw>, hash: (ip: string) => string, uniqueInMemory: boolean) => {
  const window = new UniqueWindow()
  return raw.map((c) => {
    const verdict = botVerdict(c.ua)
    const h = hash(c.ip)
    const row: StoredClick = {
      a: c.at,
      i: c.id,
      p: c.partner,
      t: c.tag,
      h,
      u: c.ua ?? null,
      r: c.referrer === undefined ? null : dropCredentialParams(c.referrer),
      b: verdict.isBot,
      w: verdict.reason,
      q: !verdict.isBot && uniqueInMemory && window.firstIn(`${h} ${c.id}`, c.at)
    }
    return JSON.stringify(row) + "\n"
  })
}

describe("ClickEncoder's journal lines", () => {
  for (const uniqueInMemory of [true, false]) {
    it(`are JSON.stringify's bytes of each stored click (uniques ${uniqueInMemory ? "in memory" : "by the store"})`, () => {
      const encoder = new ClickEncoder(uniqueInMemory, () => T0)
      const page = pageOf(clicks)
      const { lines, rows } = encoder.encode(page.bytes.buffer as ArrayBuffer, page.used)
      expect(rows).toBe(clicks.length)
      expect(lines).toBe(expectedLines(clicks, (ip) => encoder.hasher.hash(ip), uniqueInMemory).join(""))
      const parsed = lines
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as StoredClick)
      expect(parsed.map((c) => c.q)).toEqual(
        uniqueInMemory
          ? [true, false, true, false, false, false, true, true, true]
          : [false, false, false, false, false, false, false, false, false]
      )
      expect(parsed.map((c) => c.w)).toEqual([
        null,
        null,
        null,
        expect.stringMatching(/slack/i),
        "empty_user_agent",
        expect.stringMatching(/^isbot:/),
        null,
        null,
        null
      ])
      expect(parsed[7].r).toBe("https://mail.example/inbox?page=2")
      expect(parsed[6].u).toBe(clicks[6].ua)
    })
  }

  it("a user agent seen before is judged and encoded as the first time, page after page", () => {
    const encoder = new ClickEncoder(true, () => T0)
    const first = pageOf(clicks)
    const again = pageOf(clicks.map((c) => ({ ...c, at: c.at + 3 * UNIQUE_WINDOW_MS })))
    const a = encoder.encode(first.bytes.buffer as ArrayBuffer, first.used).lines
    const b = encoder.encode(again.bytes.buffer as ArrayBuffer, again.used).lines
    const withoutTime = (text: string) => text.replace(/"a":\d+,/g, "")
    expect(withoutTime(b)).toBe(withoutTime(a))
  })
})
