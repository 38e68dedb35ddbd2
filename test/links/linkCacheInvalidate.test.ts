import { Deferred, Effect } from "effect"
import { describe, expect, it } from "vitest"
import { LinkCache, type RedirectTarget } from "../../links/LinkCache.ts"

// LinkCache.invalidate: what the link re-resolution relies on so that a link
// moved to another programme redirects to its new destination from the next click.
const target = (trackingId: string, location: string): RedirectTarget => ({
  location,
  trackingId,
  partnerId: null,
  tag: "t"
})

describe("LinkCache.invalidate", () => {
  it("drops a stored link and every feed id that resolved to it; other links stay cached", async () => {
    let version = 1
    const loads: Array<string> = []
    const cache = new LinkCache(100, (id) =>
      Effect.sync(() => {
        loads.push(id)
        return target(id.startsWith("f.") ? "Stored1" : id, `https://merchant.example/${id}/v${version}`)
      })
    )
    const read = (id: string) => Effect.runPromise(cache.get(id)).then((t) => t?.location)
    expect(await read("Stored1")).toBe("https://merchant.example/Stored1/v1")
    expect(await read("f.cHJvZHVjdA.tag")).toBe("https://merchant.example/f.cHJvZHVjdA.tag/v1")
    expect(await read("Other1")).toBe("https://merchant.example/Other1/v1")
    version = 2
    cache.invalidate("Stored1")
    expect(await read("Stored1")).toBe("https://merchant.example/Stored1/v2")
    expect(await read("f.cHJvZHVjdA.tag")).toBe("https://merchant.example/f.cHJvZHVjdA.tag/v2")
    expect(await read("Other1")).toBe("https://merchant.example/Other1/v1") // untouched: still from memory
    expect(loads).toEqual(["Stored1", "f.cHJvZHVjdA.tag", "Other1", "Stored1", "f.cHJvZHVjdA.tag"])
  })

  it("a load that read the old link before the invalidation does not put it back in the cache", async () => {
    const gate = Deferred.makeUnsafe<void>()
    let calls = 0
    const cache = new LinkCache(100, (id) =>
      Effect.gen(function* () {
        calls++
        if (calls === 1) yield* Deferred.await(gate) // the first read is slow, and sees the old row
        return target(id, `https://merchant.example/v${calls}`)
      })
    )
    const slow = Effect.runPromise(cache.get("Stored1"))
    cache.invalidate("Stored1")
    Effect.runSync(Deferred.succeed(gate, undefined))
    expect((await slow)?.location).toBe("https://merchant.example/v1") // that click still gets an answer
    expect((await Effect.runPromise(cache.get("Stored1")))?.location).toBe("https://merchant.example/v2")
  })
})
