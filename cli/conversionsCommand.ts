import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { existsSync } from "node:fs"
import { resolve } from "node:path"
import { STATUSES } from "../conversions/ConversionRecord.ts"
import {
  CliError,
  type ConversionPage,
  type ConversionSource,
  fileSource,
  httpSource,
  postgresSource,
  serverAnswers
} from "./conversions/ConversionSource.ts"
import { renderReconciliation } from "./conversions/reconcileReport.ts"
import { operatorEnv } from "./operator/OperatorEnv.ts"
import { serverFlag } from "./operator/ServerFlag.ts"
import { formatFields, formatTable } from "./partner/Table.ts"
import type { RevenueSummary } from "../conversions/ConversionQueries.ts"

// `npm run conversions -- [--status S] [--unattributed] [--network N] [--json]`:
// operator view of conversions and platform revenue. With --reconcile
// [--network N] [--month YYYY-MM]: the reconciliation per network and month
// (GET /admin/conversions/reconciliation). With a server running
// (--server, default http://$HOST:$PORT) it reads the admin endpoints with
// ADMIN_TOKEN or $DATA_DIR/admin-token, as every operator command does; with
// none it opens $DATA_DIR/catalog.duckdb directly.

// C0, DEL and C1 controls. Input refuses them now, but a row stored before
// that (or written straight into the store) must not drive the terminal.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g
/** The text with every control character shown as its \u escape. */
const printable = (text: string) =>
  text.replace(CONTROL, (control) => `\\u${control.charCodeAt(0).toString(16).padStart(4, "0")}`)

/** The link column: the tracking id, or why there is none and what the network named. */
const linkCell = (c: ConversionPage["data"][number]) => {
  if (c.tracking_id !== null) return c.tracking_id
  const why = [c.unattributed_reason, c.click_ref].filter((part) => part !== null).join(": ")
  return why === "" ? "unattributed" : `unattributed (${why})`
}

const render = (page: ConversionPage, summary: RevenueSummary, source: string) => {
  const money = (value: string) => value.replace(/(\.\d{2})00$/, "$1")
  const table = formatTable(
    [
      { header: "id", maxWidth: 32 },
      { header: "status" },
      { header: "link" },
      { header: "partner", align: "right" },
      { header: "commission", align: "right" },
      { header: summary.reporting_currency, align: "right" },
      { header: "partner share", align: "right" },
      { header: "platform share", align: "right" },
      { header: "event (UTC)" }
    ],
    page.data.map((c) => [
      printable(c.id),
      c.status,
      printable(linkCell(c)),
      c.partner_id === null ? "-" : String(c.partner_id),
      `${money(c.commission)} ${c.currency}`,
      money(c.commission_reporting),
      money(c.partner_share),
      money(c.platform_share),
      c.event_at.slice(0, 16).replace("T", " ")
    ])
  )
  const { pagination } = page
  const shown = page.data.length === 0 ? "none" : `${pagination.offset + 1}-${pagination.offset + page.data.length}`
  const byStatus = summary.by_status.map((s) => `${s.status} ${s.conversions}`).join(", ") || "none"
  return [
    table,
    `(${shown} of ${pagination.total}${pagination.next_offset === null ? "" : `; next page: --offset ${pagination.next_offset}`})`,
    "",
    formatFields([
      ["source", source],
      ["conversions", byStatus],
      [
        "unattributed",
        `${summary.unattributed.conversions} (${money(summary.unattributed.commission)} ${summary.reporting_currency} commission)`
      ],
      [
        "platform revenue",
        `${money(summary.platform_revenue.total)} ${summary.reporting_currency} (pending ${money(summary.platform_revenue.pending)}, approved ${money(summary.platform_revenue.approved)})`
      ],
      [
        "partner revenue",
        `${money(summary.partner_revenue.total)} ${summary.reporting_currency} (pending ${money(summary.partner_revenue.pending)}, approved ${money(summary.partner_revenue.approved)})`
      ]
    ]),
    "Declined and reversed conversions earn nothing; revenue counts pending and approved only."
  ].join("\n")
}

const conversions = Command.make(
  "conversions",
  {
    status: Flag.Literals("status", STATUSES).pipe(
      Flag.withDescription("Only conversions with this status"),
      Flag.optional
    ),
    unattributed: Flag.Boolean("unattributed").pipe(
      Flag.withDescription("Only conversions that matched no tracking link"),
      Flag.withDefault(false)
    ),
    network: Flag.String("network").pipe(Flag.withDescription("Only this network id"), Flag.optional),
    reconcile: Flag.Boolean("reconcile").pipe(
      Flag.withDescription("Reconcile per network and month: network's figures, credited shares, difference, flags"),
      Flag.withDefault(false)
    ),
    month: Flag.String("month").pipe(
      Flag.withDescription("With --reconcile: only this month of the sales (YYYY-MM, UTC)"),
      Flag.optional
    ),
    limit: Flag.Int("limit").pipe(Flag.withDescription("Rows per page (1..100)"), Flag.withDefault(50)),
    offset: Flag.Int("offset").pipe(Flag.withDescription("Rows to skip"), Flag.withDefault(0)),
    json: Flag.Boolean("json").pipe(
      Flag.withDescription("Print { conversions, summary } as JSON"),
      Flag.withDefault(false)
    ),
    server: serverFlag
  },
  Effect.fn(
    function* (flags) {
      const env = operatorEnv()
      const url = Option.getOrElse(flags.server, () => env.serverUrl).replace(/\/+$/, "")
      const filter = {
        status: Option.getOrUndefined(flags.status),
        unattributed: flags.unattributed ? true : undefined,
        network: Option.getOrUndefined(flags.network)
      }
      const result = yield* Effect.tryPromise({
        try: async () => {
          if (flags.limit < 1 || flags.limit > 100) throw new CliError("--limit must be 1..100")
          const month = Option.getOrUndefined(flags.month)
          if (month !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(month))
            throw new CliError("--month must be YYYY-MM (a UTC calendar month)")
          if (month !== undefined && !flags.reconcile) throw new CliError("--month goes with --reconcile")
          if (flags.offset < 0) throw new CliError("--offset must be 0 or more")
          let source: ConversionSource
          let close = async () => {}
          if (Option.isSome(flags.server) || (await serverAnswers(url))) {
            source = httpSource(url)
          } else if (env.databaseUrl !== undefined) {
            const opened = await postgresSource(env.databaseUrl, env.reportingCurrency)
            source = opened.source
            close = opened.close
          } else {
            const file = resolve(env.dataDir, "catalog.duckdb")
            if (!existsSync(file)) throw new CliError(`no server answers at ${url} and there is no database at ${file}`)
            const opened = await fileSource(file, env.reportingCurrency)
            source = opened.source
            close = opened.close
          }
          process.stderr.write(`reading ${source.describe}\n`)
          try {
            if (flags.reconcile) {
              const report = await source.reconcile({ network: filter.network, month })
              return { kind: "reconciliation" as const, report, source: source.describe }
            }
            const [page, summary] = await Promise.all([
              source.list(filter, flags.limit, flags.offset),
              source.summary()
            ])
            return { kind: "conversions" as const, page, summary, source: source.describe }
          } finally {
            await close()
          }
        },
        catch: (error) =>
          error instanceof CliError ? error : new CliError(error instanceof Error ? error.message : String(error))
      })
      yield* Console.log(
        result.kind === "reconciliation"
          ? flags.json
            ? JSON.stringify(result.report, null, 2)
            : renderReconciliation(result.report, result.source)
          : flags.json
            ? JSON.stringify({ conversions: result.page, summary: result.summary }, null, 2)
            : render(result.page, result.summary, result.source)
      )
    },
    (effect) =>
      effect.pipe(
        Effect.catch((error: CliError) =>
          Effect.gen(function* () {
            yield* Console.error(`conversions: ${error.message}`)
            process.exitCode = 1
          })
        )
      )
  )
).pipe(
  Command.withDescription(
    "Conversions by status, unattributed conversions and platform revenue; --reconcile: per network and month against what was credited (operators)"
  )
)

conversions.pipe(Command.run({ version: "0.1.0" }), Effect.provide(NodeServices.layer), NodeRuntime.runMain)
