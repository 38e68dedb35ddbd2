import { Clock, Context, Effect, Layer, Schema } from "effect"
import { formatDecimal, parseDecimal, type Ratio, type Scaled } from "../domain/money/Decimal.ts"
import { parseShare, revenueFor } from "../domain/money/RevenueSplit.ts"
import { NullableNumber, NullableText, NullableTimestamp, Text, Timestamp } from "../infra/columns.ts"
import { Database, DatabaseError, type JsonColumnType, type Tx } from "../infra/Database.ts"
import { type Adjustment, adjustmentOf, writeAdjustments } from "./ConversionAdjustments.ts"
import { attributionColumns, moneyColumns } from "./conversionColumns.ts"
import { upsertWithCorrections } from "./ConversionCorrections.ts"
import { type ConversionRecord, conversionId, STATUSES } from "./ConversionRecord.ts"
import { ReportingRates, type ReportingRatesShape } from "./ReportingRates.ts"

// The one writer of the conversions table. Every source (report pipelines,
// postbacks) hands it normalised records; it attributes them to tracking
// links, converts to the reporting currency, splits the revenue, and upserts
// by '{network}:{network_tx_id}' so a transaction seen again updates its one
// row. Rules:
// - A record whose update time is older than the stored one is stale and
//   ignored (a re-run of an old report cannot roll a status back); a record
//   without an update time applies unless it would move a settled
//   (approved/declined/reversed, time-stamped) conversion back to pending.
// - Declined and reversed conversions earn nothing: partner_share and
//   platform_share become 0 (an approved -> reversed move reverses revenue).
// - The partner's revenue share is fixed when the conversion is first
//   attributed: renegotiating a partner's share later does not rewrite history.
// - Unattributed conversions (no tracking link with that id) are kept with
//   tracking_id NULL and the platform keeps the commission; they are re-
//   attributed on every later sighting, when a link they name is created
//   (TrackingLinks), and on a schedule (ReattributionSchedule) should the
//   link turn up another way. attributed_at records when; later than
//   created_at is "late" revenue (GET /api/v1/partners/me).
// - Every first sighting and every change of status or amounts appends a row
//   to conversion_events; a change that moves credited money also appends an
//   adjustment (ConversionAdjustments.ts).

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
  /** Attributes unattributed conversions whose click reference now matches a tracking link; returns how many. */
  reattribute(): Effect.Effect<number, DatabaseError>
  /** The same, only for conversions naming these tracking ids (cheap: called for every batch of new links). */
  reattributeLinks(trackingIds: ReadonlyArray<string>): Effect.Effect<number, DatabaseError>
}

const LinkRow = Schema.Struct({ tracking_id: Text, partner_id: NullableNumber, tag: Text, share: NullableText })
type Link = typeof LinkRow.Type

const StoredRow = Schema.Struct({
  id: Text,
  ...attributionColumns,
  ...moneyColumns,
  status: Text,
  event_at: Timestamp,
  network_updated_at: NullableTimestamp,
  attributed_at: NullableTimestamp
})

const UnattributedRow = Schema.Struct({
  network_id: Text,
  network_tx_id: Text,
  click_ref: Text,
  order_amount: Text,
  commission: Text,
  currency: Text,
  status: Schema.Literals(STATUSES),
  event_at: Timestamp,
  network_updated_at: NullableTimestamp,
  source: Text
})

interface Stored {
  readonly id: string
  readonly status: string
  readonly order_amount: string
  readonly commission: string
  readonly currency: string
  readonly tracking_id: string | null
  readonly partner_id: number | null
  readonly revenue_share: string | null
  readonly commission_reporting: string
  readonly partner_share: string
  readonly platform_share: string
  readonly network_updated_at: Date | null
  readonly attributed_at: Date | null
  readonly signature: string
}

const COLUMNS = [
  "id",
  "network_id",
  "network_tx_id",
  "click_ref",
  "tracking_id",
  "partner_id",
  "tag",
  "currency",
  "order_amount",
  "commission",
  "reporting_currency",
  "commission_reporting",
  "order_amount_reporting",
  "fx_rate",
  "revenue_share",
  "partner_share",
  "platform_share",
  "status",
  "event_at",
  "network_updated_at",
  "source",
  "created_at",
  "updated_at",
  "attributed_at"
] as const
const CASTS: Partial<Record<(typeof COLUMNS)[number], string>> = {
  partner_id: "INTEGER",
  order_amount: "DECIMAL(18,4)",
  commission: "DECIMAL(18,4)",
  commission_reporting: "DECIMAL(18,4)",
  order_amount_reporting: "DECIMAL(18,4)",
  fx_rate: "DECIMAL(18,8)",
  revenue_share: "DECIMAL(6,4)",
  partner_share: "DECIMAL(18,4)",
  platform_share: "DECIMAL(18,4)",
  event_at: "TIMESTAMPTZ",
  network_updated_at: "TIMESTAMPTZ",
  created_at: "TIMESTAMPTZ",
  updated_at: "TIMESTAMPTZ",
  attributed_at: "TIMESTAMPTZ"
}
/** Columns whose change is a real change (source and times of sighting are not). */
const SIGNATURE = [
  "click_ref",
  "tracking_id",
  "partner_id",
  "tag",
  "currency",
  "order_amount",
  "commission",
  "reporting_currency",
  "commission_reporting",
  "order_amount_reporting",
  "revenue_share",
  "partner_share",
  "platform_share",
  "status",
  "event_at",
  "network_updated_at"
] as const
const CHUNK = 5000
const DECIMAL_LIMIT = 10n ** 18n

type Row = Record<(typeof COLUMNS)[number], string | number | null>

const decimalText = (value: string) => formatDecimal(parseDecimal(value) ?? 0n)
const signatureOf = (row: Record<string, unknown>) =>
  SIGNATURE.map((column) => {
    const value = row[column]
    return value instanceof Date ? value.toISOString() : value === null || value === undefined ? "" : String(value)
  }).join("|")

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

const lookupLinks = (tx: Tx, refs: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const links = new Map<string, Link>()
    if (refs.length === 0) return links
    const rows = yield* tx.queryAs(
      LinkRow,
      `SELECT t.id AS tracking_id, t.partner_id, t.tag, p.revenue_share::VARCHAR AS share
       FROM tracking_links t LEFT JOIN partners p ON p.id = t.partner_id WHERE t.id IN ${tx.jsonList("$1")}`,
      [JSON.stringify(refs)]
    )
    for (const row of rows) links.set(row.tracking_id, row)
    return links
  })

/**
 * PostgreSQL: the rows read are locked until COMMIT, in id order, so a writer
 * on another replica waits and then reads what this one wrote. DuckDB has no
 * row locks and needs none: one process, one writer (Database.transaction).
 */
const lockedInIdOrder = (tx: Tx) => (tx.dialect === "postgres" ? "ORDER BY id FOR UPDATE" : "")

/** The stored rows of `ids`, read locked (see lockedInIdOrder). */
const lookupStored = (tx: Tx, ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const stored = new Map<string, Stored>()
    if (ids.length === 0) return stored
    {
      const rows = yield* tx.queryAs(
        StoredRow,
        `SELECT id, click_ref, tracking_id, partner_id, tag, currency, order_amount::VARCHAR AS order_amount,
                commission::VARCHAR AS commission, reporting_currency, commission_reporting::VARCHAR AS commission_reporting,
                order_amount_reporting::VARCHAR AS order_amount_reporting, revenue_share::VARCHAR AS revenue_share,
                partner_share::VARCHAR AS partner_share, platform_share::VARCHAR AS platform_share, status, event_at,
                network_updated_at, attributed_at
         FROM conversions WHERE id IN ${tx.jsonList("$1")} ${lockedInIdOrder(tx)}`,
        [JSON.stringify(ids)]
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
    }
    return stored
  })

/** Keeps one record per id: the most recently updated, the later one in the input on a tie. */
const latestPerId = (records: ReadonlyArray<ConversionRecord>) => {
  const byId = new Map<string, { record: ConversionRecord; index: number }>()
  records.forEach((record, index) => {
    const id = conversionId(record.network, record.networkTxId)
    const previous = byId.get(id)
    const older =
      previous !== undefined &&
      previous.record.updatedAt !== null &&
      record.updatedAt !== null &&
      record.updatedAt < previous.record.updatedAt
    if (!older) byId.set(id, { record, index })
  })
  return byId
}

/**
 * A record older than what we stored. With both update times known, the
 * older loses. A record without one (a pending Awin transaction has no
 * validationDate) may not move a settled conversion back to pending.
 */
const isStale = (stored: Stored, record: ConversionRecord) => {
  if (stored.network_updated_at === null) return false
  if (record.updatedAt !== null) return record.updatedAt < stored.network_updated_at
  return record.status === "pending" && stored.status !== "pending"
}

/**
 * Why a well-formed record still cannot be stored (no rate for its currency,
 * or an amount that overflows DECIMAL(18,4) once converted), or undefined.
 * Sources check this before writing so that a batch is all-or-nothing.
 */
export const unstorable = (rates: ReportingRatesShape, record: ConversionRecord): string | undefined => {
  const commission = rates.toReporting(record.commission, record.currency)
  const order = rates.toReporting(record.orderAmount, record.currency)
  if (commission === undefined || order === undefined) {
    return `currency: no ${rates.reportingCurrency} rate for ${record.currency} in the rate table`
  }
  // DECIMAL(18,4) holds |x| < 10^14; a huge amount converted to a weak currency could overflow it.
  if ([commission.value, order.value].some((value) => value >= DECIMAL_LIMIT || value <= -DECIMAL_LIMIT)) {
    return `order_amount: too large once converted to ${rates.reportingCurrency}`
  }
  return undefined
}

const shareText = (share: string | null) => (share === null ? null : formatDecimal(parseDecimal(share) ?? 0n))

const buildRow = (
  rates: ReportingRatesShape,
  record: ConversionRecord,
  link: Link | undefined,
  stored: Stored | undefined,
  source: string,
  now: Date
): Row | string => {
  const problem = unstorable(rates, record)
  if (problem !== undefined) return problem
  const commission = rates.toReporting(record.commission, record.currency)!
  const order = rates.toReporting(record.orderAmount, record.currency)!
  const partnerId = link?.partner_id ?? null
  // The share is locked at first attribution to this partner.
  const shareAsText =
    partnerId === null
      ? null
      : stored !== undefined && stored.partner_id === partnerId && stored.revenue_share !== null
        ? stored.revenue_share
        : shareText(link?.share ?? null)
  const share: Ratio | undefined = shareAsText === null ? undefined : parseShare(shareAsText)
  const split = revenueFor(record.status, commission.value, share, rates.minorUnits)
  const money = (value: Scaled) => formatDecimal(value)
  return {
    id: conversionId(record.network, record.networkTxId),
    network_id: record.network,
    network_tx_id: record.networkTxId,
    click_ref: record.clickRef,
    tracking_id: link?.tracking_id ?? null,
    partner_id: partnerId,
    tag: link?.tag ?? null,
    currency: record.currency,
    order_amount: money(record.orderAmount),
    commission: money(record.commission),
    reporting_currency: rates.reportingCurrency,
    commission_reporting: money(commission.value),
    order_amount_reporting: money(order.value),
    fx_rate: commission.rateText,
    revenue_share: share === undefined ? null : shareAsText,
    partner_share: money(split.partner),
    platform_share: money(split.platform),
    status: record.status,
    event_at: record.eventAt.toISOString(),
    network_updated_at: record.updatedAt?.toISOString() ?? null,
    source,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    // Kept while the link stays the same: a later attribution than created_at is what makes revenue "late".
    attributed_at:
      link === undefined
        ? null
        : stored?.tracking_id === link.tracking_id && stored.attributed_at !== null
          ? stored.attributed_at.toISOString()
          : now.toISOString()
  }
}

// A batch travels as ONE JSON text parameter (tx.jsonRows). Every value is text
// and cast in SQL, so decimals stay exact.
const allText = (columns: ReadonlyArray<string>): Record<string, JsonColumnType> =>
  Object.fromEntries(columns.map((column) => [column, "VARCHAR"]))

const CAST_COLUMNS = COLUMNS.map((column) => {
  const cast = CASTS[column]
  return `${column}${cast === undefined ? "" : `::${cast}`}`
}).join(", ")
const UPDATES = COLUMNS.filter((column) => column !== "id" && column !== "created_at")
  .map((column) => `${column} = EXCLUDED.${column}`)
  .join(", ")

/** `INSERT … SELECT` of one chunk of rows, bound as one JSON parameter; `conflict` ends the statement. */
const insertChunk = (tx: Tx, chunk: ReadonlyArray<Row>, conflict: string) =>
  [
    `INSERT INTO conversions (${COLUMNS.join(", ")})
     SELECT ${CAST_COLUMNS} FROM ${tx.jsonRows("$1", allText(COLUMNS))}
     ${conflict}`,
    [
      JSON.stringify(
        chunk.map((row) =>
          Object.fromEntries(COLUMNS.map((column) => [column, row[column] === null ? null : String(row[column])]))
        )
      )
    ]
  ] as const

/** Rows of ids that exist (read locked): the upsert only confirms them. */
const writeRows = (tx: Tx, rows: ReadonlyArray<Row>) =>
  Effect.forEach(
    chunks(rows, CHUNK),
    (chunk) => tx.run(...insertChunk(tx, chunk, `ON CONFLICT (id) DO UPDATE SET ${UPDATES}`)),
    { discard: true }
  )

/** Rows of new ids; returns the ids this transaction created (the others exist: another writer was first). */
const insertNew = (tx: Tx, rows: ReadonlyArray<Row>) =>
  Effect.gen(function* () {
    const created = new Set<string>()
    for (const chunk of chunks(rows, CHUNK)) {
      const returned = yield* tx.queryAs(
        CreatedRow,
        ...insertChunk(tx, chunk, "ON CONFLICT (id) DO NOTHING RETURNING id")
      )
      for (const { id } of returned) created.add(id)
    }
    return created
  })
const CreatedRow = Schema.Struct({ id: Text })

const EVENT_COLUMNS = [
  "conversion_id",
  "previous_status",
  "status",
  "order_amount",
  "commission",
  "seen_at",
  "source"
] as const
type Event = readonly [string, string | null, string, string, string, string, string]

const writeEvents = (tx: Tx, events: ReadonlyArray<Event>) =>
  Effect.forEach(
    chunks(events, CHUNK),
    (chunk) =>
      tx.run(
        `INSERT INTO conversion_events (${EVENT_COLUMNS.join(", ")})
       SELECT conversion_id, previous_status, status, order_amount::DECIMAL(18,4), commission::DECIMAL(18,4),
              seen_at::TIMESTAMPTZ, source
       FROM ${tx.jsonRows("$1", allText(EVENT_COLUMNS))}`,
        [JSON.stringify(chunk.map((event) => Object.fromEntries(EVENT_COLUMNS.map((column, i) => [column, event[i]]))))]
      ),
    { discard: true }
  )

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
  link: Link | undefined,
  previous: Stored | undefined,
  source: string,
  now: Date
): Decision => {
  if (previous !== undefined && isStale(previous, record)) return { kind: "stale" }
  const row = buildRow(rates, record, link, previous, source, now)
  if (typeof row === "string") return { kind: "rejected", reason: row }
  if (previous !== undefined && previous.signature === signatureOf(row)) return { kind: "unchanged" }
  const moved =
    previous === undefined ||
    previous.status !== row.status ||
    previous.commission !== row.commission ||
    previous.order_amount !== row.order_amount ||
    previous.currency !== row.currency
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
    const latest = latestPerId(records)
    const refs = [
      ...new Set([...latest.values()].flatMap(({ record }) => (record.clickRef === null ? [] : [record.clickRef])))
    ]
    const links = yield* lookupLinks(tx, refs)
    const now = new Date(yield* Clock.currentTimeMillis)
    const decideAll = (ids: ReadonlyArray<string>, stored: ReadonlyMap<string, Stored>) =>
      ids.map((id) => {
        const { record } = latest.get(id)!
        const link = record.clickRef === null ? undefined : links.get(record.clickRef)
        return [id, decide(rates, record, link, stored.get(id), source, now)] as const
      })
    // Sorted: every writer locks and inserts ids in the same order, so two
    // batches sharing ids wait for one another instead of deadlocking.
    const ids = [...latest.keys()].sort()
    const decisions = new Map(decideAll(ids, yield* lookupStored(tx, ids)))

    const fresh = [...decisions.values()].flatMap((decision) =>
      decision.kind === "write" && decision.isNew ? [decision.row] : []
    )
    const created = yield* insertNew(tx, fresh)
    const raced = fresh.flatMap((row) => (created.has(row.id as string) ? [] : [row.id as string]))
    if (raced.length > 0)
      for (const [id, decision] of decideAll(raced, yield* lookupStored(tx, raced))) decisions.set(id, decision)

    const updates: Array<Row> = []
    const events: Array<Event> = []
    const adjustments: Array<Adjustment> = []
    const rejected: Array<{ index: number; reason: string }> = []
    let inserted = 0,
      updated = 0,
      unchanged = 0,
      stale = 0
    for (const [id, decision] of decisions) {
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
    }
    yield* writeRows(tx, updates)
    yield* writeEvents(tx, events)
    yield* writeAdjustments(tx, adjustments)
    rejected.sort((a, b) => a.index - b.index)
    const rejectedIndexes = new Set(rejected.map(({ index }) => index))
    const written = records.flatMap((record, index) =>
      rejectedIndexes.has(index) ? [] : [conversionId(record.network, record.networkTxId)]
    )
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
      UnattributedRow,
      `SELECT network_id, network_tx_id, click_ref, order_amount::VARCHAR AS order_amount, commission::VARCHAR AS commission,
              currency, status, event_at, network_updated_at, source
       FROM conversions
       WHERE tracking_id IS NULL AND click_ref IN (${
         onlyRefs === undefined ? "SELECT id FROM tracking_links" : `SELECT * FROM ${tx.jsonList("$1")}`
       }) ${lockedInIdOrder(tx)}`,
      onlyRefs === undefined ? [] : [JSON.stringify(onlyRefs)]
    )
    if (rows.length === 0) return 0
    const bySource = new Map<string, Array<ConversionRecord>>()
    for (const row of rows) {
      const record: ConversionRecord = {
        network: row.network_id,
        networkTxId: row.network_tx_id,
        clickRef: row.click_ref,
        orderAmount: parseDecimal(row.order_amount) ?? 0n,
        commission: parseDecimal(row.commission) ?? 0n,
        currency: row.currency,
        status: row.status,
        eventAt: row.event_at,
        updatedAt: row.network_updated_at
      }
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

/**
 * PostgreSQL's deadlock error. Ledger writers lock in id order, but a report
 * load locks its batch, then the unattributed rows it re-attributes: a
 * postback batch naming rows of both can wait on it while it waits on the
 * postback. PostgreSQL then aborts one transaction; it rolled back whole, so
 * it is run again.
 */
const isDeadlock = (error: unknown) =>
  error instanceof DatabaseError &&
  typeof error.cause === "object" &&
  error.cause !== null &&
  "code" in error.cause &&
  error.cause.code === "40P01"

/** `transaction` run again (up to 3 times) when PostgreSQL aborted it to break a deadlock. */
export const retryingDeadlocks = <A, E, R>(transaction: Effect.Effect<A, E, R>) =>
  Effect.retry(transaction, { times: 3, while: isDeadlock })

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
