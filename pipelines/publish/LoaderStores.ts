import { Effect } from "effect"
import { Database, type DatabaseShape, type DuckDbShape } from "../../infra/Database.ts"
import { Staging } from "../../infra/Staging.ts"
import { CatalogPublisher, type CatalogPublisherShape } from "./CatalogPublisher.ts"

/**
 * What a catalog loader works with: `staging` (DuckDB) for read_csv, the
 * checks and the replace; `db`, the system of record, for rejected rows and
 * run facts the API reads; `publisher` to replace-and-publish a feed.
 */
export interface LoaderStores {
  readonly db: DatabaseShape
  readonly staging: DuckDbShape
  readonly publisher: CatalogPublisherShape
}

export const loaderStores: Effect.Effect<LoaderStores, never, Database | Staging | CatalogPublisher> = Effect.gen(
  function* () {
    return { db: yield* Database, staging: yield* Staging, publisher: yield* CatalogPublisher }
  }
)
