import type { ReconciliationRow } from "../../conversions/reconciliationRules.ts"
import { formatTable } from "../partner/Table.ts"

// `npm run conversions -- --reconcile`: the reconciliation as a table, one
// line per network and month, then each flag and timing note in words.

export interface ReconciliationResponse {
  readonly reporting_currency: string
  readonly validation_days: number
  readonly months: ReadonlyArray<ReconciliationRow>
}

const money = (value: string) => value.replace(/(\.\d{2})00$/, "$1")

export const renderReconciliation = (report: ReconciliationResponse, source: string) => {
  const count = (row: ReconciliationRow, status: string) =>
    row.network_reports.by_status.find((s) => s.status === status)?.conversions ?? 0
  const table = formatTable(
    [
      { header: "network" },
      { header: "month" },
      { header: "state" },
      { header: "pend/appr/decl/rev", align: "right" },
      { header: `commission ${report.reporting_currency}`, align: "right" },
      { header: "partners", align: "right" },
      { header: "platform", align: "right" },
      { header: "diff partners", align: "right" },
      { header: "diff total", align: "right" }
    ],
    report.months.map((row) => [
      row.network,
      row.month,
      row.state,
      ["pending", "approved", "declined", "reversed"].map((status) => count(row, status)).join("/"),
      money(row.network_reports.earning_commission),
      money(row.credited.partner.total),
      money(row.credited.platform.total),
      money(row.difference.partner),
      money(row.difference.commission)
    ])
  )
  const notes = report.months.flatMap((row) => [
    ...row.flags.map(
      (flag) =>
        `FLAG ${row.network} ${row.month} ${flag.reason}: ${flag.message} (${money(flag.amount)} ${flag.currency})`
    ),
    ...row.timing.map((timing) => `timing ${row.network} ${row.month} ${timing.reason}: ${timing.message}`)
  ])
  return [
    table,
    "",
    ...notes,
    ...(notes.length > 0 ? [""] : []),
    `source: ${source}`,
    `Commission is pending + approved as the network reports it (corrections applied); partners and platform are what was credited. ` +
      `Pending conversions are timing until ${report.validation_days} days after their month; anything else that differs is flagged.`
  ].join("\n")
}
