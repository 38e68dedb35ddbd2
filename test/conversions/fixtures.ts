import { Effect, Layer } from "effect"
import { readFileSync } from "node:fs"
import { ConversionLedger } from "../../conversions/ConversionLedger.ts"
import { ReportingRates } from "../../conversions/ReportingRates.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { parseReport } from "../../conversions/reports/index.ts"
import { Database, type Tx } from "../../infra/Database.ts"
import { testDatabaseLayer } from "../support/testDatabase.ts"
import { referenceClock } from "../../scripts/lib/referenceClock.ts"

// The sample links the sample reports refer to (data/samples/reports/README.md).
export const SAMPLE_LINKS = [
  { id: "Qm7xK2pL9vTa", partner: 1, tag: "acme-deals" },
  { id: "Hn4cW8rZ1sYb", partner: 1, tag: "acme-deals" },
  { id: "Bd6fJ3tN5gUe", partner: 2, tag: "gear-guide" },
  { id: "Ar9kP1mX7wQz", partner: null, tag: "feed" }
] as const

/**
 * The postback tests' calendar: the day after their conversions happened
 * (event_time 2026-11-20), whatever day the suite runs, so a conversion is
 * never "ahead of the server's time" and the signatures' timestamps are the
 * server's "now". The service runs on it, and the tests sign with it.
 */
export const postbackClock = () => referenceClock(Date.parse("2026-11-21T12:00:00Z"))

export const sampleReport = (name: string) =>
  readFileSync(new URL(`../../data/samples/reports/${name}`, import.meta.url), "utf8")

/**
 * Two partners (70% default share and 80%) and the four sample tracking
 * links, on `network`'s programmes: a conversion is only credited to a link
 * of the network reporting it (the sample reports of every network name the
 * same links; `sampleLinksOn` moves them).
 */
export const seedSampleLinks = (tx: Pick<Tx, "run">, network = "awin") =>
  Effect.gen(function* () {
    yield* tx.run(
      `INSERT INTO partners (id, name, email, tag, key_hash, key_prefix, created_at) VALUES
         (1, 'Acme Deals', 'a@example.com', 'acme-deals', 'hash-1', 'ak_1', now()),
         (2, 'Gear Guide', 'g@example.com', 'gear-guide', 'hash-2', 'ak_2', now())`
    )
    yield* tx.run("UPDATE partners SET revenue_share = 0.8 WHERE id = 2")
    for (const link of SAMPLE_LINKS) {
      yield* tx.run(
        `INSERT INTO tracking_links (id, partner_id, tag, original_url, normalized_url, destination_url, affiliate_url, source, created_at, network_id)
         VALUES ($1, $2::INTEGER, $3, $4, $4, $4, $4, 'match', now(), $5)`,
        [link.id, link.partner, link.tag, `https://shop.example.com/${link.id}`, network]
      )
    }
  })

/** The sample links' programmes moved to `network` (as a re-resolution would), so its sample report credits them. */
export const sampleLinksOn = (network: string) =>
  Effect.flatMap(Database, (db) =>
    db.run(`UPDATE tracking_links SET network_id = $1 WHERE id IN ${db.jsonList("$2")}`, [
      network,
      JSON.stringify(SAMPLE_LINKS.map((link) => link.id))
    ])
  )

/** Ledger over the project's store (an in-memory DuckDB, or a fresh PostgreSQL database) and the repository's config/rates.json (reporting in USD). */
export const ledgerLayer = ConversionLedger.layer.pipe(
  Layer.provideMerge(ReportingRates.layer),
  Layer.provideMerge(testDatabaseLayer()),
  Layer.provide(AppConfig.layerWith({ dataDir: "unused" }))
)

/**
 * An unattributed conversion `dev:{txId}` naming `linkId`, then that link
 * written straight into tracking_links, past TrackingLinks (as a restored
 * backup or an operator would): only a re-attribution pass can match them.
 */
export const conversionBeforeItsLink = (txId: string, linkId: string) =>
  Effect.gen(function* () {
    const report = parseReport(
      "generic",
      "transaction_id,click_ref,order_amount,commission,currency,status,event_time\n" +
        `${txId},${linkId},80.00,4.00,USD,pending,2026-11-20T10:00:00Z\n`,
      { network: "dev" }
    )
    yield* (yield* ConversionLedger).upsert(
      report.records.map(({ record }) => record),
      "dev-report"
    )
    yield* (yield* Database).run(
      `INSERT INTO tracking_links (id, partner_id, tag, original_url, normalized_url, destination_url, affiliate_url, source, created_at, network_id)
       VALUES ($1, NULL, 'anon', $2, $2, $2, $2, 'match', now(), 'dev')`,
      [linkId, `https://shop.example.com/${linkId}`]
    )
  })
