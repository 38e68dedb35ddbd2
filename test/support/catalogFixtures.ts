import { Effect, Option } from "effect"
import { createHash } from "node:crypto"
import { Database, type DatabaseShape } from "../../infra/Database.ts"
import { Staging } from "../../infra/Staging.ts"

// Writes products and price history straight into the store, for tests of
// what reads the catalog (search sync, discovery feed) without going through
// a feed pipeline. Columns follow infra/schema.ts (the same order on
// PostgreSQL). With PostgreSQL the rows also go to staging (when the service
// runs one), as a feed's publish leaves them: the search sync reads staging.

export interface FixtureProduct {
  readonly feed?: string
  readonly itemId: string
  readonly title: string
  readonly description?: string
  readonly brand?: string
  readonly category?: string
  readonly productType?: string
  readonly store?: string
  readonly storeDomain?: string
  readonly link?: string
  readonly image?: string
  readonly currency?: string
  readonly price: number
  readonly salePrice?: number
  readonly wasPrice?: number
  readonly availability?: string
  /** Earlier prices, oldest first, as [days ago, price]; the current price is added at `currentSinceDays`. */
  readonly history?: ReadonlyArray<readonly [number, number]>
  readonly currentSinceDays?: number
  /** Variant attributes (a colour or size makes the row group by model in search). */
  readonly color?: string
  readonly size?: string
  readonly gtin?: string
  /** 'new' unless set. */
  readonly condition?: string
  readonly itemGroupId?: string
  /** Where it sells, comma-separated ISO codes as the loader stores them (none: every market of its currency). */
  readonly countries?: string
}

const DAY = 86_400_000

export const productId = (product: FixtureProduct) => `${product.feed ?? "fixture"}:${product.itemId}`

/** The system of record, and staging when it is a separate DuckDB file. */
const catalogStores = Effect.gen(function* () {
  const db = yield* Database
  const staging = yield* Effect.serviceOption(Staging)
  return Option.isSome(staging) && staging.value !== db ? [db, staging.value] : [db]
})

export const insertProducts = (products: ReadonlyArray<FixtureProduct>) =>
  Effect.gen(function* () {
    const now = Date.now()
    for (const db of yield* catalogStores) yield* writeProducts(db, products, now)
  })

const writeProducts = (db: DatabaseShape, products: ReadonlyArray<FixtureProduct>, now: number) =>
  Effect.gen(function* () {
    yield* db.transaction((tx) =>
      Effect.gen(function* () {
        for (const product of products) {
          const id = productId(product)
          const current = product.salePrice ?? product.price
          const link = product.link ?? `https://${product.storeDomain ?? "shop.example.com"}/p/${product.itemId}`
          const hash = createHash("sha1").update(JSON.stringify(product)).digest("hex")
          yield* tx.run("DELETE FROM products WHERE id = $1", [id])
          yield* tx.run(
            `INSERT INTO products VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $22, NULL, $9, $10, NULL, $11, $12, $13,
               $14, $15, $16, $17, $18, $23, $19, now(), now(), $20, $21, $24, NULL, NULL, NULL, NULL, $25)`,
            [
              id,
              product.feed ?? "fixture",
              product.itemId,
              product.title,
              product.description ?? "",
              link,
              product.image ?? `https://img.example.com/${product.itemId}.jpg`,
              product.brand ?? null,
              product.category ?? null,
              product.productType ?? null,
              product.store ?? "Example Shop",
              product.storeDomain ?? "shop.example.com",
              product.currency ?? "USD",
              product.price,
              product.salePrice ?? null,
              current,
              product.wasPrice ?? null,
              product.availability ?? "in_stock",
              hash,
              product.color ?? null,
              product.size ?? null,
              product.gtin ?? null,
              product.condition ?? "new",
              product.itemGroupId ?? null,
              product.countries ?? null
            ]
          )
          yield* tx.run("DELETE FROM price_history WHERE product_id = $1", [id])
          for (const [daysAgo, price] of product.history ?? []) {
            yield* tx.run("INSERT INTO price_history VALUES ($1, $2::TIMESTAMPTZ, $3, $4, NULL)", [
              id,
              new Date(now - daysAgo * DAY).toISOString(),
              price,
              product.currency ?? "USD"
            ])
          }
          yield* tx.run("INSERT INTO price_history VALUES ($1, $2::TIMESTAMPTZ, $3, $4, NULL)", [
            id,
            new Date(now - (product.currentSinceDays ?? 0) * DAY).toISOString(),
            current,
            product.currency ?? "USD"
          ])
        }
      })
    )
  })

export const deleteProducts = (ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    for (const db of yield* catalogStores) {
      for (const id of ids) yield* db.run("DELETE FROM products WHERE id = $1", [id])
    }
  })
