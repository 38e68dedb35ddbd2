import { Effect } from "effect"
import { createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import { RateLimiter } from "../../partners/RateLimiter.ts"
import { LinkCache } from "../../links/LinkCache.ts"
import { judgeWindow, UniqueWindow } from "../../domain/clicks/UniqueWindow.ts"
import { VisitorHasher } from "../../domain/clicks/VisitorHasher.ts"
import { dedupeTag, tagBaseFromName } from "../../domain/links/partnerTag.ts"
import { TAG_PATTERN } from "../../domain/links/feedTrackingId.ts"
import { newTrackingId, STORED_TRACKING_ID } from "../../domain/links/trackingId.ts"

describe("UniqueWindow", () => {
  it("counts a visitor once per link per hour", () => {
    const w = new UniqueWindow(3_600_000)
    expect(w.firstIn("v1 L1", 0)).toBe(true)
    expect(w.firstIn("v1 L1", 59 * 60_000)).toBe(false)
    expect(w.firstIn("v1 L2", 60_000)).toBe(true)
    expect(w.firstIn("v2 L1", 60_000)).toBe(true)
    expect(w.firstIn("v1 L1", 60 * 60_000 + 1)).toBe(true)
  })
  it("stays bounded", () => {
    const w = new UniqueWindow(3_600_000, 100)
    for (let i = 0; i < 1000; i++) w.firstIn(`k${i}`, i)
    expect(w.size).toBeLessThanOrEqual(100)
  })
  it("forgets windows as a walk from the oldest after every click would (expired first, then past the bound)", () => {
    // The reference: the walk the window ran after every new window, before
    // it kept the oldest end aside to skip walks that remove nothing.
    class Walked {
      readonly ends = new Map<string, number>()
      readonly windowMs: number
      readonly maxEntries: number
      constructor(windowMs: number, maxEntries: number) {
        this.windowMs = windowMs
        this.maxEntries = maxEntries
      }
      firstIn(key: string, now: number) {
        const end = this.ends.get(key)
        if (end !== undefined && end > now) return false
        if (end !== undefined) this.ends.delete(key)
        this.ends.set(key, now + this.windowMs)
        for (const [k, e] of this.ends) {
          if (e > now && this.ends.size <= this.maxEntries) break
          this.ends.delete(k)
        }
        return true
      }
    }
    for (const [windowMs, maxEntries] of [
      [1_000, 50],
      [1_000, 1_000_000],
      [50, 20]
    ] as const) {
      const w = new UniqueWindow(windowMs, maxEntries)
      const reference = new Walked(windowMs, maxEntries)
      let seed = 42
      const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648)
      let now = 0
      for (let i = 0; i < 20_000; i++) {
        // mostly forward, sometimes a click stamped a little earlier (clocks, pages from two moments)
        now = Math.max(0, now + (next() % 40) - 8)
        const key = `v${next() % 60} L${next() % 5}`
        expect(w.firstIn(key, now)).toBe(reference.firstIn(key, now))
        expect(w.size).toBe(reference.ends.size)
      }
    }
  })
  it("judgeWindow (the stored-window form) gives the same verdicts, batch by batch", () => {
    const times = [0, 1, 59 * 60_000, 60 * 60_000, 60 * 60_000 + 5, 2 * 60 * 60_000 - 1, 3 * 60 * 60_000]
    const memory = new UniqueWindow(3_600_000)
    const expected = times.map((at) => memory.firstIn("v L", at))
    expect(expected).toEqual([true, false, false, true, false, false, true])
    // The same clicks in batches of 2, the start carried between them as a store would.
    let start: number | undefined
    const judged: Array<boolean> = []
    for (let i = 0; i < times.length; i += 2) {
      const batch = judgeWindow(start, times.slice(i, i + 2), 3_600_000)
      judged.push(...batch.unique)
      start = batch.start
    }
    expect(judged).toEqual(expected)
    expect(start).toBe(3 * 60 * 60_000)
  })
  it("judgeWindow counts a click older than the stored start as a repeat", () => {
    expect(judgeWindow(10 * 60_000, [5 * 60_000]).unique).toEqual([false])
  })
})

describe("VisitorHasher", () => {
  it("is stable within a day, never the raw IP, and rotates at midnight", () => {
    let now = Date.parse("2026-11-22T10:00:00Z")
    const hasher = new VisitorHasher(() => now)
    const a = hasher.hash("203.0.113.9")
    expect(hasher.hash("203.0.113.9")).toBe(a)
    expect(a).not.toContain("203")
    expect(hasher.hash("203.0.113.10")).not.toBe(a)
    now = Date.parse("2026-11-23T00:00:01Z")
    expect(hasher.hash("203.0.113.9")).not.toBe(a)
  })
  it("hashes alike in two processes that share the day's salt, and apart without it", () => {
    const now = () => Date.parse("2026-11-22T10:00:00Z")
    const salts = [{ day: "2026-11-22", salt: Buffer.alloc(32, 7).toString("base64") }]
    const a = new VisitorHasher(now)
    const b = new VisitorHasher(now)
    const alone = new VisitorHasher(now)
    const before = a.hash("203.0.113.9")
    a.share(salts)
    b.share(salts)
    expect(a.hash("203.0.113.9")).toBe(b.hash("203.0.113.9"))
    expect(a.hash("203.0.113.9")).not.toBe(before)
    expect(alone.hash("203.0.113.9")).not.toBe(a.hash("203.0.113.9"))
  })
  it("is HMAC-SHA256 of the IP under the day's salt, as replicas running createHmac compute it", () => {
    let now = Date.parse("2026-11-22T23:59:59Z")
    const today = Buffer.alloc(32, 7)
    const tomorrow = Buffer.alloc(32, 9)
    const hasher = new VisitorHasher(() => now)
    hasher.share([
      { day: "2026-11-22", salt: today.toString("base64") },
      { day: "2026-11-23", salt: tomorrow.toString("base64") }
    ])
    const hmac = (salt: Buffer, ip: string) => createHmac("sha256", salt).update(ip).digest("base64url").slice(0, 22)
    for (const ip of ["203.0.113.9", "2001:db8::1", "unknown", "10.0.0.1"])
      expect(hasher.hash(ip)).toBe(hmac(today, ip))
    now += 2_000
    expect(hasher.hash("203.0.113.9")).toBe(hmac(tomorrow, "203.0.113.9"))
  })
})

describe("RateLimiter", () => {
  it("allows a burst, then refuses with a retry time, then refills", () => {
    let now = 0
    const limiter = new RateLimiter({ perMinute: 60, burst: 2 }, () => now)
    expect(limiter.take("k").allowed).toBe(true)
    expect(limiter.take("k").allowed).toBe(true)
    const refused = limiter.take("k")
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 1 })
    expect(limiter.take("other").allowed).toBe(true)
    now = 1_000
    expect(limiter.take("k").allowed).toBe(true)
  })
})

describe("partner tags and tracking ids", () => {
  it.each([
    ["Ça Va Deals!", "ca-va-deals"],
    ["  --Hello  World--  ", "hello-world"],
    ["日本", "partner"],
    ["x".repeat(80), "x".repeat(40)]
  ])("tag of %j is %s", (name, tag) => {
    expect(tagBaseFromName(name)).toBe(tag)
    expect(TAG_PATTERN.test(tag)).toBe(true)
  })
  it("deduplicates", () => {
    expect(dedupeTag("shop", new Set())).toBe("shop")
    expect(dedupeTag("shop", new Set(["shop", "shop-2"]))).toBe("shop-3")
  })
  it("makes short URL-safe ids that never look like feed ids", () => {
    const ids = new Set(Array.from({ length: 2000 }, newTrackingId))
    expect(ids.size).toBe(2000)
    for (const id of ids) expect(id).toMatch(STORED_TRACKING_ID)
  })
})

describe("LinkCache", () => {
  it("coalesces concurrent misses into one load and serves hits from memory", async () => {
    let loads = 0
    const cache = new LinkCache(10, (id: string) =>
      Effect.promise(async () => {
        loads++
        await new Promise((r) => setTimeout(r, 20))
        return id === "missing"
          ? undefined
          : { location: `https://m.example/${id}`, trackingId: id, partnerId: null, tag: "t" }
      })
    )
    const results = await Effect.runPromise(
      Effect.all(
        Array.from({ length: 50 }, () => cache.get("a")),
        { concurrency: "unbounded" }
      )
    )
    expect(loads).toBe(1)
    expect(new Set(results.map((r) => r?.location))).toEqual(new Set(["https://m.example/a"]))
    expect(cache.peek("a")?.location).toBe("https://m.example/a")
    await Effect.runPromise(cache.get("missing"))
    await Effect.runPromise(cache.get("missing"))
    expect(loads).toBe(2)
  })
  it("evicts the least recently used entry", async () => {
    const cache = new LinkCache(2, (id: string) =>
      Effect.succeed({ location: `https://m.example/${id}`, trackingId: id, partnerId: null, tag: "t" })
    )
    await Effect.runPromise(cache.get("a"))
    await Effect.runPromise(cache.get("b"))
    cache.peek("a")
    await Effect.runPromise(cache.get("c"))
    expect(cache.peek("b")).toBeUndefined()
    expect(cache.peek("a")).toBeDefined()
    expect(cache.size).toBe(2)
  })
  it("keeps a link hit between inserts however many others come and go, and stays bounded", async () => {
    const cache = new LinkCache(4, (id: string) =>
      Effect.succeed({ location: `https://m.example/${id}`, trackingId: id, partnerId: null, tag: "t" })
    )
    await Effect.runPromise(cache.get("hot"))
    for (let i = 0; i < 100; i++) {
      await Effect.runPromise(cache.get(`cold${i}`))
      expect(cache.peek("hot")?.location).toBe("https://m.example/hot")
      expect(cache.size).toBeLessThanOrEqual(4)
    }
    // the cold links not hit since left in insertion order: the newest three are kept
    expect(cache.peek("cold99")).toBeDefined()
    expect(cache.peek("cold97")).toBeDefined()
    expect(cache.peek("cold96")).toBeUndefined()
  })
  it("invalidate(trackingId) forgets the link, feed ids resolved to it and a remembered unknown", async () => {
    const destinations = new Map([["L1", "https://m.example/old"]])
    let loads = 0
    const cache = new LinkCache(10, (id: string) =>
      Effect.sync(() => {
        loads++
        const stored = id.startsWith("f.") ? "L1" : id
        const location = destinations.get(stored)
        return location === undefined ? undefined : { location, trackingId: stored, partnerId: null, tag: "t" }
      })
    )
    await Effect.runPromise(cache.get("L1"))
    await Effect.runPromise(cache.get("f.cHJvZHVjdA.tag"))
    expect(await Effect.runPromise(cache.get("L2"))).toBeUndefined()
    destinations.set("L1", "https://m.example/new")
    destinations.set("L2", "https://m.example/created")
    expect(cache.peek("L1")?.location).toBe("https://m.example/old")
    cache.invalidate("L1")
    cache.invalidate("L2")
    expect(cache.peek("L1")).toBeUndefined()
    expect(cache.peek("f.cHJvZHVjdA.tag")).toBeUndefined()
    expect((await Effect.runPromise(cache.get("f.cHJvZHVjdA.tag")))?.location).toBe("https://m.example/new")
    expect((await Effect.runPromise(cache.get("L2")))?.location).toBe("https://m.example/created")
    expect(loads).toBe(5)
  })
})
