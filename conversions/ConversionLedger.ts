import { Clock, Context, Effect, Layer } from "effect"
import { attribution, type CreditableLink } from "../domain/conversions/attribution.ts"
import { type ConversionRecord, conversionId } from "../domain/conversions/ConversionRecord.ts"
import { isMove, isStale, keepLatest, type LatestById } from "../domain/conversions/statusRules.ts"
import { formatDecimal, parseDecimal } from "../domain/money/Decimal.ts"
import { Database, type DatabaseError, type Tx } from "../infra/Database.ts"
import { byCodeUnits, forEachInSlices, forEachSlice, sortInSlices } from "../infra/yieldToEventLoop.ts"
import { type Adjustment, adjustmentOf, writeAdjustments } from "./ConversionAdjustments.ts"
import { upsertWithCorrections } from "./ConversionCorrections.ts"
import {
  buildRow,
  creditableLink,
  decimalText,
  LinkRow,
  RECORD_COLUMNS,
  recordOf,
  RecordRow,
  type Row,
  signatureOf,
  type Stored,
  storedStatus,
  StoredRow
} from "./ledgerRows.ts"
import { type Event, insertNew, retryingDeadlocks, writeEvents, writeRows } from "./ledgerWrites.ts"
import { claimSignature, type PostbackReplayed, type SignatureClaim } from "./PostbackReplay.ts"
import { ReportingRates, type ReportingRatesShape } from "./ReportingRates.ts"

// The one writer of the conversions table. Every source (report pipelines,
// postbacks) hands it normalised records; it attributes them to tracking
// links, converts to the reporting currency, splits the revenue, and upserts
// by '{network}:{network_tx_id}' so a transaction seen again updates its one
// row. The rules are pure functions in domain/conversions/: which record wins
// (statusRules.ts: a stale record is ignored, a declined or reversed
// conversion moves back only with a newer update time), who is credited
// (attribution.ts), what the row holds (ledgerEntry.ts: money in the reporting
// currency, the revenue split, the share locked at first attribution) and how
// corrections move a conversion (corrections.ts). This service reads, locks
// and writes around them:
// - Unattributed conversions are kept with tracking_id NULL and the reason in
//   unattributed_reason; they are re-attributed on every later sighting, when
//   a link they name is created (TrackingLinks), and on a schedule
//   (ReattributionSchedule) should the link turn up another way.
// - Every first sighting and every change of status or amounts appends a row
//   to conversion_events.

export interface UpsertResult {
  readonly inserted: number
  readonly updated: number
  readonly unchanged: number
  readonly stale: number
  /** Records that could not be stored (e.g. a currency with no rate), by index in the input. */
  readonly rejected: ReadonlyArray<{ readonly index: number; readonly reason: string }>
  /** The ids written or confirmed, in input order (for postback responses). */
  readonly ids: ReadonlyArray<string>
}

export interface ConversionLedgerShape {
  /** Upserts records in one transaction. */
  upsert(records: ReadonlyArray<ConversionRecord>, source: string): Effect.Effect<UpsertResult, DatabaseError>
  /** A signed postback's records, in the transaction that claims its signature (a replay fails, writing nothing). */
  upsertPostback(
    records: ReadonlyArray<ConversionRecord>,
    claim: SignatureClaim
  ): Effect.Effect<UpsertResult, DatabaseError | PostbackReplayed>
  /** Attributes unattributed conversions whose click reference now matches a tracking link; returns how many. */
  reattribute(): Effect.Effect<number, DatabaseError>
  /** The same, only for conversions naming these tracking ids (cheap: called for every batch of new links). */
  reattributeLinks(trackingIds: ReadonlyArray<string>): Effect.Effect<number, DatabaseError>
}

const lookupLinks = (tx: Tx, refs: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const links = new Map<string, CreditableLink>()
    if (refs.length === 0) return links
    const rows = yield* tx.queryAs(
      LinkRow,
      `SELECT t.id AS tracking_id, t.partner_id, t.tag, p.revenue_share::VARCHAR AS share, t.network_id
       FROM tracking_links t LEFT JOIN partners p ON p.id = t.partner_id WHERE t.id IN ${tx.jsonList("$1")}`,
      [JSON.stringify(refs)]
    )
    for (const row of rows) links.set(row.tracking_id, creditableLink(row))
    return links
  })

/**
 * PostgreSQL: the rows read are locked until COMMIT, in id order, so a writer
 * on another replica waits and then reads what this one wrote. DuckDB has no
 * row locks and needs none: one process, one writer (Database.transaction).
 */
const lockedInIdOrder = (tx: Tx) => tx.sql.lockRowsInOrder("id")

/**
 * Ids looked up per query, the event loop turning between two: a report's
 * batch is tens of thousands of transactions, and the loader runs in the
 * process that answers redirects (ConversionReportLoader.ts).
 */
export const IDS_PER_LOOKUP = 1_000

/**
 * The stored rows of `ids` (sorted), read locked (see lockedInIdOrder), a
 * chunk of ids per query: in id order across chunks too, so two writers still
 * lock in one order.
 */
const lookupStored = (tx: Tx, ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const stored = new Map<string, Stored>()
    yield* forEachSlice(ids, IDS_PER_LOOKUP, (slice) =>
      Effect.gen(function* () {
        const rows = yield* tx.queryAs(
          StoredRow,
          `SELECT id, click_ref, tracking_id, partner_id, tag, currency, order_amount::VARCHAR AS order_amount,
                commission::VARCHAR AS commission, reporting_currency, commission_reporting::VARCHAR AS commission_reporting,
                order_amount_reporting::VARCHAR AS order_amount_reporting, revenue_share::VARCHAR AS revenue_share,
                partner_share::VARCHAR AS partner_share, platform_share::VARCHAR AS platform_share, status, event_at,
                network_updated_at, attributed_at, unattributed_reason
         FROM conversions WHERE id IN ${tx.jsonList("$1")} ${lockedInIdOrder(tx)}`,
          [JSON.stringify(slice)]
        )
        for (const read of rows) {
          const row = {
            ...read,
            order_amount: decimalText(read.order_amount),
            commission: decimalText(read.commission),
            commission_reporting: decimalText(read.commission_reporting),
            order_amount_reporting: decimalText(read.order_amount_reporting),
            partner_share: decimalText(read.partner_share),
            platform_share: decimalText(read.platform_share),
            revenue_share: read.revenue_share === null ? null : formatDecimal(parseDecimal(read.revenue_share) ?? 0n)
          }
          stored.set(row.id, { ...row, signature: signatureOf(row) })
        }
      })
    )
    return stored
  })

/** A stored or built row as the history rule sees it. */
const movable = (row: Pick<Row, "status" | "order_amount" | "commission" | "currency">) => ({
  status: String(row.status),
  orderAmount: String(row.order_amount),
  commission: String(row.commission),
  currency: String(row.currency)
})

type Decision =
  | { readonly kind: "stale" }
  | { readonly kind: "unchanged" }
  | { readonly kind: "rejected"; readonly reason: string }
  | {
      readonly kind: "write"
      readonly isNew: boolean
      readonly row: Row
      readonly event: Event | undefined
      readonly adjustment: Adjustment | undefined
    }

/** What one record does to the ledger, given the row stored under its id (if any). */
const decide = (
  rates: ReportingRatesShape,
  record: ConversionRecord,
  links: ReadonlyMap<string, CreditableLink>,
  previous: Stored | undefined,
  source: string,
  now: Date
): Decision => {
  if (previous !== undefined && isStale(storedStatus(previous), record)) return { kind: "stale" }
  const { link, reason } = attribution(record, links)
  const row = buildRow(rates, record, link, reason, previous, source, now)
  if (typeof row === "string") return { kind: "rejected", reason: row }
  if (previous !== undefined && previous.signature === signatureOf(row)) return { kind: "unchanged" }
  const moved = isMove(previous === undefined ? undefined : movable(previous), movable(row))
  const event: Event | undefined = moved
    ? [
        row.id as string,
        previous?.status ?? null,
        row.status as string,
        row.order_amount as string,
        row.commission as string,
        now.toISOString(),
        source
      ]
    : undefined
  // What the change moved in credited money, for the partner's adjustments (ConversionAdjustments.ts).
  const adjustment =
    event === undefined || previous === undefined
      ? undefined
      : adjustmentOf(previous, row, record.correctionReason, now, source)
  return { kind: "write", isNew: previous === undefined, row, event, adjustment }
}

/**
 * Writes every record in one transaction. Across replicas the database
 * decides (PostgreSQL's transactions of two processes do not queue behind
 * each other): rows that exist are read locked (`lookupStored`), and a new
 * id is created by `INSERT … ON CONFLICT DO NOTHING RETURNING`, so of two
 * replicas receiving the same postback at once exactly one creates the row
 * and appends its creation event; the other finds the row committed, re-reads
 * it locked and treats its record as an update (usually unchanged).
 */
export const upsertConversions = (
  tx: Tx,
  rates: ReportingRatesShape,
  records: ReadonlyArray<ConversionRecord>,
  source: string
): Effect.Effect<UpsertResult, DatabaseError> =>
  Effect.gen(function* () {
    // Every pass over the batch goes a slice at a time (a report of 200,000
    // transactions held the event loop ~300 ms with whole passes).
    const latest: LatestById<ConversionRecord> = new Map()
    yield* forEachInSlices(records, (record, index) => keepLatest(latest, record, index))
    const refs = new Set<string>()
    yield* forEachInSlices([...latest.values()], ({ record }) => {
      if (record.clickRef !== null) refs.add(record.clickRef)
    })
    const links = yield* lookupLinks(tx, [...refs])
    const now = new Date(yield* Clock.currentTimeMillis)
    const decisions = new Map<string, Decision>()
    const decideAll = (ids: ReadonlyArray<string>, stored: ReadonlyMap<string, Stored>) =>
      forEachInSlices(ids, (id) =>
        decisions.set(id, decide(rates, latest.get(id)!.record, links, stored.get(id), source, now))
      )
    // Sorted: every writer locks and inserts ids in the same order, so two
    // batches sharing ids wait for one another instead of deadlocking.
    const ids = yield* sortInSlices([...latest.keys()], byCodeUnits)
    yield* decideAll(ids, yield* lookupStored(tx, ids))

    const fresh: Array<Row> = []
    yield* forEachInSlices(ids, (id) => {
      const decision = decisions.get(id)!
      if (decision.kind === "write" && decision.isNew) fresh.push(decision.row)
    })
    const created = yield* insertNew(tx, fresh)
    const raced = fresh.flatMap((row) => (created.has(row.id as string) ? [] : [row.id as string]))
    // decided again, in their place in `decisions`
    if (raced.length > 0) yield* decideAll(raced, yield* lookupStored(tx, raced))

    const updates: Array<Row> = []
    const events: Array<Event> = []
    const adjustments: Array<Adjustment> = []
    const rejected: Array<{ index: number; reason: string }> = []
    let inserted = 0,
      updated = 0,
      unchanged = 0,
      stale = 0
    yield* forEachInSlices(ids, (id) => {
      const decision = decisions.get(id)!
      if (decision.kind === "rejected") rejected.push({ index: latest.get(id)!.index, reason: decision.reason })
      else if (decision.kind === "stale") stale++
      else if (decision.kind === "unchanged") unchanged++
      else {
        if (decision.isNew) inserted++
        else {
          updated++
          updates.push(decision.row)
        }
        if (decision.event !== undefined) events.push(decision.event)
        if (decision.adjustment !== undefined) adjustments.push(decision.adjustment)
      }
    })
    yield* writeRows(tx, updates)
    yield* writeEvents(tx, events)
    yield* writeAdjustments(tx, adjustments)
    rejected.sort((a, b) => a.index - b.index)
    const rejectedIndexes = new Set(rejected.map(({ index }) => index))
    const written: Array<string> = []
    yield* forEachInSlices(records, (record, index) => {
      if (!rejectedIndexes.has(index)) written.push(conversionId(record.network, record.networkTxId))
    })
    return { inserted, updated, unchanged, stale, rejected, ids: written }
  })

/**
 * A conversion can arrive before its link is known here (a restored backup,
 * a link created on another replica, the sample reports loaded at first
 * start). Those rows are rebuilt from their stored values and upserted again,
 * so attribution and the revenue split follow exactly the same rules.
 */
export const reattributeConversions = (tx: Tx, rates: ReportingRatesShape, onlyRefs?: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    if (onlyRefs !== undefined && onlyRefs.length === 0) return 0
    // Restricted to given ids (links just made), the lookup needs no join with tracking_links.
    // Read locked: a postback changing one of these rows meanwhile on another replica is not rolled back.
    const rows = yield* tx.queryAs(
      RecordRow,
      `SELECT ${RECORD_COLUMNS}
       FROM conversions
       WHERE tracking_id IS NULL AND click_ref IN (${
         onlyRefs === undefined ? "SELECT id FROM tracking_links" : `SELECT * FROM ${tx.jsonList("$1")}`
       }) ${lockedInIdOrder(tx)}`,
      onlyRefs === undefined ? [] : [JSON.stringify(onlyRefs)]
    )
    if (rows.length === 0) return 0
    const bySource = new Map<string, Array<ConversionRecord>>()
    for (const row of rows) {
      const record = recordOf(row)
      const source = row.source
      const group = bySource.get(source)
      if (group === undefined) bySource.set(source, [record])
      else group.push(record)
    }
    let updated = 0
    // Per original source, so the row keeps saying where it came from.
    for (const [source, records] of bySource) updated += (yield* upsertConversions(tx, rates, records, source)).updated
    return updated
  })

export class ConversionLedger extends Context.Service<ConversionLedger, ConversionLedgerShape>()(
  "app/conversions/ConversionLedger"
) {
  static readonly layer = Layer.effect(
    ConversionLedger,
    Effect.gen(function* () {
      const db = yield* Database
      const rates = yield* ReportingRates
      return ConversionLedger.of({
        // Corrections reported as records of their own (CJ) move their conversion instead of becoming one.
        upsert: (records, source) =>
          retryingDeadlocks(db.transaction((tx) => upsertWithCorrections(tx, rates, records, source))).pipe(
            Effect.map(({ corrections: _, ...result }): UpsertResult => result)
          ),
        upsertPostback: (records, claim) =>
          retryingDeadlocks(
            db.transaction((tx) =>
              Effect.gen(function* () {
                yield* claimSignature(tx, claim, new Date(yield* Clock.currentTimeMillis))
                return yield* upsertWithCorrections(tx, rates, records, "postback")
              })
            )
          ).pipe(Effect.map(({ corrections: _, ...result }): UpsertResult => result)),
        reattribute: () => retryingDeadlocks(db.transaction((tx) => reattributeConversions(tx, rates))),
        // Nearly always nothing names a new link: a reader's look first, so link creation does not queue for the writer.
        reattributeLinks: (trackingIds) =>
          Effect.gen(function* () {
            if (trackingIds.length === 0) return 0
            const named = yield* db.query(
              `SELECT 1 FROM conversions WHERE tracking_id IS NULL AND click_ref IN ${db.jsonList("$1")} LIMIT 1`,
              [JSON.stringify(trackingIds)]
            )
            return named.length === 0
              ? 0
              : yield* retryingDeadlocks(db.transaction((tx) => reattributeConversions(tx, rates, trackingIds)))
          })
      })
    })
  )
}
