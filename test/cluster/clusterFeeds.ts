import { appendFileSync, copyFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const samples = fileURLToPath(new URL("../../data/samples/", import.meta.url))

export interface ClusterFeeds {
  readonly configPath: string
  readonly names: ReadonlyArray<string>
  /** A product URL on a sample programme's shop (the matcher gives it a link). */
  readonly matchableUrl: string
  /** Adds a programme for `url`'s host to the programmes feed (run it again to publish). */
  addProgramFor(url: string): void
}

/**
 * The sample networks, programmes, one product feed and the price history, in a feeds config of
 * the test's own: the programmes file is a copy the test may change, so a
 * second run of that feed is a real catalog change.
 */
export const writeClusterFeeds = (dir: string): ClusterFeeds => {
  const programs = join(dir, "programs.jsonl")
  copyFileSync(join(samples, "programs.jsonl"), programs)
  const feeds = [
    { name: "networks", kind: "networks", format: "networks-jsonl", location: join(samples, "networks.jsonl") },
    { name: "programs", kind: "programs", format: "programs-jsonl", location: programs },
    {
      name: "us-electronics",
      kind: "products",
      format: "gmc-tsv",
      location: join(samples, "products", "us-electronics-and-home.tsv"),
      options: { storeColumn: "custom_label_0", country: "US" }
    },
    // Deals are prices below the product's own 30-day low: they need the history.
    {
      name: "price-history",
      kind: "price_history",
      format: "price-history-csv",
      location: join(samples, "price-history.csv")
    }
  ].map((feed) => ({ ...feed, schedule: "0 3 * * *" }))
  const configPath = join(dir, "feeds.json")
  writeFileSync(configPath, JSON.stringify({ feeds }, null, 2))
  let merchant = 990_000
  return {
    configPath,
    names: feeds.map((feed) => feed.name),
    matchableUrl: "https://anker.com/products/a2633",
    addProgramFor: (url) => {
      merchant += 1
      const program = {
        network_id: "awin",
        merchant_id: String(merchant),
        name: `Cluster shop ${merchant}`,
        domains: [new URL(url).hostname],
        country: "US",
        category: "Electronics",
        commission_type: "CPS",
        commission_rate: 5,
        commission_currency: null,
        cookie_days: 30,
        status: "active",
        deep_link_allowed: true,
        epc: null,
        link_params: { mid: String(merchant) }
      }
      appendFileSync(programs, `${JSON.stringify(program)}\n`)
    }
  }
}
