import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { feedsJsonSchema, loadFeedsConfig, parseFeedsConfig, resolveLocation } from "../../pipelines/FeedConfig.ts"

const parse = (value: unknown) =>
  Effect.runPromise(
    Effect.result(parseFeedsConfig(typeof value === "string" ? value : JSON.stringify(value), "feeds.json"))
  )

const good = { name: "shop", kind: "products", format: "gmc-tsv", location: "data/x.tsv", schedule: "0 * * * *" }

describe("feed configuration", () => {
  it("accepts the shipped config/feeds.json and applies option defaults", async () => {
    const feeds = await Effect.runPromise(loadFeedsConfig("config/feeds.json"))
    expect(feeds.length).toBeGreaterThanOrEqual(6)
    expect(feeds.find((f) => f.name === "networks")?.options).toMatchObject({
      rejectThreshold: 0.2,
      retries: 3,
      timeoutMs: 30_000
    })
  })

  it("names the feed and the field of every problem", async () => {
    const result = await parse({
      feeds: [
        good,
        { ...good, name: "awin-uk", format: "gmc-xls" },
        { ...good, name: "nightly", schedule: "every night" },
        { ...good, name: "thresh", options: { rejectThreshold: 2 } },
        { ...good, name: "shop" },
        { ...good, name: "ftp", location: "ftp://feeds.example/x.tsv" },
        { ...good, name: "typo", shedule: "0 * * * *" }
      ]
    })
    expect(result._tag).toBe("Failure")
    const message = result._tag === "Failure" ? result.failure.message : ""
    expect(message).toContain(
      'feed "awin-uk" field format: must be one of gmc-tsv, gmc-xml, awin-csv for kind products'
    )
    expect(message).toContain('feed "nightly" field schedule: must be a cron expression')
    expect(message).toContain('feed "thresh" field options.rejectThreshold')
    expect(message).toContain("field name: duplicate feed name shop")
    expect(message).toContain('feed "ftp" field location: must be a local path, a file:// URL or an http(s):// URL')
    expect(message).toContain('feed "typo" field (entry): Unrecognized key')
  })

  it("reports unreadable JSON and a missing file", async () => {
    const bad = await parse("{ feeds: [")
    expect(bad._tag === "Failure" && bad.failure.message).toMatch(/feeds\.json: not valid JSON/)
    const missing = await Effect.runPromise(Effect.result(loadFeedsConfig("/nonexistent/feeds.json")))
    expect(missing._tag === "Failure" && missing.failure.message).toMatch(
      /cannot read feed configuration \/nonexistent\/feeds\.json/
    )
  })

  it("resolves locations: repo-relative paths, file:// and http(s)://", () => {
    expect(resolveLocation("data/samples/networks.jsonl")).toMatchObject({ type: "file" })
    expect(
      resolveLocation("data/samples/networks.jsonl").type === "file" && resolveLocation("data/samples/networks.jsonl")
    ).toMatchObject({ path: expect.stringMatching(/\/data\/samples\/networks\.jsonl$/) })
    expect(resolveLocation("file:///tmp/a.tsv")).toEqual({ type: "file", path: "/tmp/a.tsv" })
    expect(resolveLocation("https://feeds.example/a.tsv")).toEqual({ type: "http", url: "https://feeds.example/a.tsv" })
  })

  it("keeps config/feeds.schema.json in step with the Schema rule (npm run feeds:schema)", () => {
    expect(readFileSync("config/feeds.schema.json", "utf8")).toBe(feedsJsonSchema())
  })
})
