import { Context, Effect, Layer, type Option } from "effect"
import type { DaySalt } from "../domain/clicks/VisitorHasher.ts"
import { AppConfig } from "../infra/AppConfig.ts"
import { Database, type DatabaseError } from "../infra/Database.ts"
import { duckdbJournalStore, type JournalStore } from "./ClickJournal.ts"
import { partitionedPass, singleProcessPass } from "./clickHousekeeping.ts"
import { postgresJournalStore } from "./PostgresJournalStore.ts"
import { replicaId } from "./replicaId.ts"
import { sharedSalts } from "./sharedSalts.ts"

// Where clicks go and who decides what, in one process that owns its store
// versus replicas sharing one: two layers of this one service, chosen once
// where the service is composed (service.ts). The click recorder and its
// housekeeping read these answers and never ask which store they run on.

export interface ClickStorageShape {
  /** Where the journal's sealed segments are stored. */
  readonly journal: JournalStore
  /**
   * Whether the click worker decides unique clicks in its memory (one
   * process sees every click) or the store does (each replica sees a share).
   */
  readonly uniquesInMemory: boolean
  /**
   * Whether a busy writer rests longer between applies: worth it where the
   * store parses the batch on its own threads (DuckDB's read_json), not where
   * the batch is encoded on the event loop (COPY to PostgreSQL).
   */
  readonly restWhenBusy: boolean
  /**
   * The visitor-hash salts every replica uses (created by the first to ask,
   * re-read hourly); undefined: the worker makes its own.
   */
  readonly sharedSalts: Effect.Effect<ReadonlyArray<DaySalt>, DatabaseError> | undefined
  /** One housekeeping pass: partitions and unique windows on replicas, retention on both. */
  housekeeping(retentionDays: Option.Option<number>): Effect.Effect<void, DatabaseError>
}

export class ClickStorage extends Context.Service<ClickStorage, ClickStorageShape>()("app/clicks/ClickStorage") {
  /** One process owns a DuckDB file: one journal, uniques and salts in the worker's memory. */
  static readonly layerSingleProcess = Layer.effect(
    ClickStorage,
    Effect.gen(function* () {
      const db = yield* Database
      return ClickStorage.of({
        journal: duckdbJournalStore(db),
        uniquesInMemory: true,
        restWhenBusy: true,
        sharedSalts: undefined,
        housekeeping: (retentionDays) => singleProcessPass(db, retentionDays)
      })
    })
  )

  /** Replicas share PostgreSQL: a journal per replica, uniques decided and salts kept in the store. */
  static readonly layerReplicas = Layer.effect(
    ClickStorage,
    Effect.gen(function* () {
      const db = yield* Database
      const config = yield* AppConfig
      return ClickStorage.of({
        journal: postgresJournalStore(db, replicaId(config.dataDir)),
        uniquesInMemory: false,
        restWhenBusy: false,
        sharedSalts: sharedSalts(db),
        housekeeping: (retentionDays) => partitionedPass(db, retentionDays)
      })
    })
  )
}
