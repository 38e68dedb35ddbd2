import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Database } from "../../infra/Database.ts"
import type { AppConfigShape } from "../../infra/AppConfig.ts"
import { PipelineRunner, type RunSummary } from "../../pipelines/PipelineRunner.ts"
import { type RunningService, startService, tempDir } from "../support/TestService.ts"

// Helpers for pipeline tests: a service over real DuckDB and the shared real
// Meilisearch, with a feed configuration written for the test.

export type FeedInput = {
  name: string
  kind: string
  format: string
  location: string
  schedule?: string
  options?: Record<string, unknown>
}

export const writeFeeds = (dir: string, feeds: ReadonlyArray<FeedInput>) => {
  const path = join(dir, `feeds-${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(path, JSON.stringify({ feeds }, null, 2))
  return path
}

export const startWithFeeds = async (feeds: ReadonlyArray<FeedInput>, overrides: Partial<AppConfigShape> = {}) => {
  const files = tempDir("feeds-")
  const service = await startService({ feedsConfigPath: writeFeeds(files.dir, feeds), ...overrides })
  return {
    service,
    files,
    close: async () => {
      await service.close()
      files.rm()
    }
  }
}

export const runFeed = (service: RunningService, feed: string): Promise<RunSummary> =>
  service.run(PipelineRunner.use((runner) => runner.run(feed, "manual")))

export const query = <T = Record<string, unknown>>(
  service: RunningService,
  sql: string,
  params: Array<string | number> = []
) => service.run(Database.use((db) => db.query<T>(sql, params)))

export const count = async (service: RunningService, sql: string, params: Array<string | number> = []) =>
  Number((await query<{ n: bigint }>(service, sql, params))[0].n)

export const rejected = (service: RunningService, runId: string) =>
  query<{ line: bigint; reason: string }>(
    service,
    "SELECT line, reason FROM rejected_rows WHERE run_id = $1 ORDER BY line",
    [runId]
  ).then((rows) => rows.map((row) => ({ line: Number(row.line), reason: row.reason })))

export const TSV_HEADER = [
  "id",
  "title",
  "description",
  "link",
  "image_link",
  "availability",
  "price",
  "sale_price",
  "sale_price_effective_date",
  "brand",
  "product_type",
  "custom_label_0"
]

export interface TsvProduct {
  id: string
  title?: string
  price?: string
  sale_price?: string
  sale_price_effective_date?: string
  availability?: string
  link?: string
  store?: string
}

export const tsvRow = (p: TsvProduct) =>
  [
    p.id,
    p.title ?? `Product ${p.id}`,
    `Description of ${p.id}`,
    p.link ?? `https://www.shop.example/p/${p.id}`,
    `https://img.shop.example/${p.id}.jpg`,
    p.availability ?? "in_stock",
    p.price ?? "10.00 USD",
    p.sale_price ?? "",
    p.sale_price_effective_date ?? "",
    "Acme",
    "Electronics > Audio",
    p.store ?? "Shop Example"
  ].join("\t")

export const tsv = (products: ReadonlyArray<TsvProduct>) =>
  [TSV_HEADER.join("\t"), ...products.map(tsvRow)].join("\n") + "\n"

export const products = (n: number, from = 0, price = "10.00 USD"): Array<TsvProduct> =>
  Array.from({ length: n }, (_, i) => ({ id: `P${from + i}`, price }))
