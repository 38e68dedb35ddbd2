import { Clock, Effect, Option } from "effect"
import type { DatabaseShape } from "../infra/Database.ts"
import { catalogIdOf, productDocument, type ProductDocument, type ProductRow } from "../readModel/documents.ts"
import { PRODUCT_FACT_JOINS, PRODUCT_ROW_COLUMNS, productFactsCtes } from "../readModel/productFactsSql.ts"

// The landing page's fallback when Meilisearch cannot answer: the same
// document the search sync would send, built from the store (the source of
// truth) for this one product. A shopper who followed a link must not meet a
// 503 for a product we hold.
export const ONE_PRODUCT_SQL = `WITH ${productFactsCtes("WHERE id = $1")}
  SELECT ${PRODUCT_ROW_COLUMNS} FROM p ${PRODUCT_FACT_JOINS}`

export const landingDocumentFromCatalog = (db: DatabaseShape, documentId: string) => {
  const productId = catalogIdOf(documentId)
  if (productId === undefined) return Effect.succeed(Option.none<ProductDocument>())
  return db
    .query<ProductRow>(ONE_PRODUCT_SQL, [productId])
    .pipe(
      Effect.flatMap((rows) =>
        Effect.map(Clock.currentTimeMillis, (now) =>
          Option.map(Option.fromNullishOr(rows[0]), (row) => productDocument(row, new Date(now)))
        )
      )
    )
}
