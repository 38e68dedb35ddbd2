import { Clock, Context, Effect, Layer, Schema, Semaphore } from "effect"
import type { Catalog, CatalogProgram } from "../domain/matching/catalog.ts"
import { affiliateUrlFor, resolveUrl } from "../domain/matching/resolve.ts"
import { isUsableNetwork } from "../domain/matching/selectProgram.ts"
import { isSafeRedirectTarget } from "../domain/matching/submittedUrl.ts"
import { NullableText, Text } from "../infra/columns.ts"
import { Database, type DatabaseError } from "../infra/Database.ts"
import { ProgramMatcher } from "./ProgramMatcher.ts"
import { type LinkReassignment, TrackingLinks } from "./TrackingLinks.ts"

// Links follow the catalog. A stored link names the programme it was matched
// to; when a networks or programmes feed closes or pauses that programme, or
// closes its network (ShareASale's programmes moved to Awin), the redirect
// must not keep sending shoppers to a dead affiliate URL. After such a feed
// run every link of an unusable programme is matched again by the very rule
// of POST /links/match (resolveUrl -> selectProgram), keeping its tracking id
// and partner; without any active programme it redirects to its plain
// destination, marked unaffiliated, and is re-affiliated when one appears.
// Links whose programme is still usable are left alone: a better offer
// appearing later does not rewrite links (no churn of a partner's links).

const RESOLVE_SLICE = 256
const WRITE_CHUNK = 2_000

export interface ReresolutionSummary {
  /** Programmes named by stored links that are no longer usable. */
  readonly unusablePrograms: number
  /** Links examined: those of unusable programmes, and unaffiliated ones. */
  readonly examined: number
  readonly moved: number
  readonly unaffiliated: number
  readonly reaffiliated: number
  readonly ms: number
}

/** Why a programme can no longer take traffic, or undefined when it can. */
export const unusableReason = (catalog: Catalog, programs: ReadonlyMap<string, CatalogProgram>, programId: string) => {
  const program = programs.get(programId)
  if (program === undefined) return "program_missing"
  if (program.status !== "active") return `program_${program.status}`
  const network = catalog.networks.get(program.networkId)
  if (network === undefined) return "network_missing"
  const status = network.status
  if (isUsableNetwork(network)) return undefined
  return status === "closed" || status === "paused" ? `network_${status}` : "network_without_deep_links"
}

const programsById = (catalog: Catalog) => {
  const byId = new Map<string, CatalogProgram>()
  for (const programs of catalog.byDomain.values()) for (const program of programs) byId.set(program.id, program)
  return byId
}

const StoredLink = Schema.Struct({
  id: Text,
  destination_url: Text,
  affiliate_url: Text,
  program_id: NullableText,
  network_id: NullableText,
  market: NullableText
})

const NamedProgram = Schema.Struct({ program_id: Text })

export class LinkReresolver extends Context.Service<
  LinkReresolver,
  {
    /** Re-reads the catalog and re-resolves every link whose programme cannot take traffic any more. */
    readonly run: Effect.Effect<ReresolutionSummary, DatabaseError>
  }
>()("app/links/LinkReresolver") {
  static readonly layer = Layer.effect(
    LinkReresolver,
    Effect.gen(function* () {
      const db = yield* Database
      const matcher = yield* ProgramMatcher
      const links = yield* TrackingLinks
      // One pass at a time in this process (start-up and feed runs may
      // overlap); passes on other replicas are made harmless by `reassign`,
      // which moves only links still as this pass read them.
      const onePass = yield* Semaphore.make(1)

      const run = Effect.gen(function* () {
        const started = performance.now()
        yield* matcher.reload
        const { catalog, rules } = yield* matcher.current
        const programs = programsById(catalog)
        const named = yield* db.queryAs(
          NamedProgram,
          "SELECT DISTINCT program_id FROM tracking_links WHERE program_id IS NOT NULL"
        )
        const reasons = new Map<string, string>()
        for (const { program_id } of named) {
          const reason = unusableReason(catalog, programs, program_id)
          if (reason !== undefined) reasons.set(program_id, reason)
        }
        const stored = yield* db.queryAs(
          StoredLink,
          `SELECT id, destination_url, affiliate_url, program_id, network_id, market FROM tracking_links
           WHERE program_id IN ${db.jsonList("$1")} OR unaffiliated_at IS NOT NULL`,
          [JSON.stringify([...reasons.keys()])]
        )
        const changes: Array<LinkReassignment> = []
        for (const [index, link] of stored.entries()) {
          // ~40 µs a link: let the event loop answer redirects between slices of a large closure.
          if (index % RESOLVE_SLICE === RESOLVE_SLICE - 1) yield* Effect.yieldNow
          // a link keeps its market: a US shopper's link whose Nike US programme closed does not move to Nike UK
          const country =
            link.market ??
            (link.program_id === null ? undefined : (programs.get(link.program_id)?.country ?? undefined))
          const resolution = resolveUrl(link.destination_url, catalog, rules, country)
          const selection = resolution.kind === "resolved" ? resolution.selection : undefined
          const affiliateUrl =
            selection === undefined || resolution.kind !== "resolved"
              ? undefined
              : affiliateUrlFor(selection, resolution.normalizedUrl, link.id)
          const usable = selection !== undefined && affiliateUrl !== undefined && isSafeRedirectTarget(affiliateUrl)
          if (!usable && link.program_id === null) continue // still without a programme
          const old = {
            trackingId: link.id,
            oldProgramId: link.program_id,
            oldNetworkId: link.network_id,
            oldAffiliateUrl: link.affiliate_url
          }
          changes.push(
            usable
              ? {
                  ...old,
                  newProgramId: selection.program.id,
                  newNetworkId: selection.network.id,
                  newAffiliateUrl: affiliateUrl,
                  reason:
                    link.program_id === null
                      ? "program_available"
                      : (reasons.get(link.program_id) ?? "program_unusable")
                }
              : {
                  ...old,
                  newProgramId: null,
                  newNetworkId: null,
                  newAffiliateUrl: link.destination_url,
                  reason: reasons.get(link.program_id!) ?? "program_unusable"
                }
          )
        }
        // Short write transactions: link creation and click batches queue behind each one.
        // Counted as applied: a link another pass moved first is not this pass's change.
        const at = new Date(yield* Clock.currentTimeMillis)
        const applied: Array<LinkReassignment> = []
        for (let i = 0; i < changes.length; i += WRITE_CHUNK)
          applied.push(...(yield* links.reassign(changes.slice(i, i + WRITE_CHUNK), at)))
        return {
          unusablePrograms: reasons.size,
          examined: stored.length,
          moved: applied.filter((c) => c.oldProgramId !== null && c.newProgramId !== null).length,
          unaffiliated: applied.filter((c) => c.newProgramId === null).length,
          reaffiliated: applied.filter((c) => c.oldProgramId === null).length,
          ms: Math.round(performance.now() - started)
        } satisfies ReresolutionSummary
      })

      return LinkReresolver.of({ run: onePass.withPermits(1)(run) })
    })
  )
}
