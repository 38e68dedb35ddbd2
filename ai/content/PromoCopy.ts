import { Context, Effect, Layer, Schema } from "effect"
import { type Copy, type Placement, assembleWithin, hashtagsFor } from "../../domain/copy/assemble.ts"
import { type CopyFacts, type CopyType, dealsOf, type Tone } from "../../domain/copy/facts.ts"
import { makePicker, templateCopy } from "../../domain/copy/template.ts"
import type { Catalog, CatalogProgram } from "../../domain/matching/catalog.ts"
import { expectedEarningsPer100Clicks, isUsableNetwork } from "../../domain/matching/selectProgram.ts"
import { stripTracking } from "../../domain/matching/trackingParams.ts"
import { Text } from "../../infra/columns.ts"
import { Database, type DatabaseError } from "../../infra/Database.ts"
import { AMAZON_DISCLOSURE, disclosureFor } from "../../discovery/present.ts"
import { LinkMatching } from "../../links/LinkMatching.ts"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import type { TrackingLink } from "../../links/TrackingLinks.ts"
import type { Partner } from "../../partners/Partners.ts"
import { CopyLlm, type FallbackReason } from "./CopyLlm.ts"
import { normaliseDomain, ProgramFacts } from "./ProgramFacts.ts"

const IdRow = Schema.Struct({ id: Text })

// Promotional copy for one programme: its facts, the partner's tracking link
// to the store (or to the featured deal), then the copy from the LLM when
// one is configured and its answer passes the fact check, else from the
// templates. Either way the link and the disclosure are placed by us.

/** Why no copy can be made for a programme that exists (answered as 409). */
export type Unlinkable =
  | { readonly kind: "program_not_found" }
  | { readonly kind: "program_inactive"; readonly status: string }
  | { readonly kind: "network_unavailable"; readonly network: string; readonly status: string }
  | { readonly kind: "no_store_domain" }
  | { readonly kind: "deep_link_unavailable"; readonly network: string }
  | { readonly kind: "no_deal" }

export interface GeneratedCopy {
  readonly copy: Copy
  readonly generator: "template" | "llm"
  readonly fallback: { readonly reason: FallbackReason; readonly message: string } | null
  readonly facts: CopyFacts
  readonly program: CatalogProgram
  readonly link: TrackingLink
  readonly trackingUrl: string
  readonly disclosure: string
}

export interface CopyRequest {
  readonly partner: Partner
  readonly programId: string
  readonly type: CopyType
  readonly tone: Tone
  /** The absolute URL of a tracking id (the service's public base + /t/{id}). */
  readonly trackingUrl: (trackingId: string) => string
}

/** Short enough for a social post; Amazon's own sentence replaces ours there (it says the same). */
export const SOCIAL_DISCLOSURE = "#ad I earn a commission if you buy through this link."

// Programme ids are looked up per request; index the loaded catalog once.
const byIdCache = new WeakMap<Catalog, ReadonlyMap<string, CatalogProgram>>()
const programById = (catalog: Catalog, id: string): CatalogProgram | undefined => {
  let index = byIdCache.get(catalog)
  if (index === undefined) {
    const built = new Map<string, CatalogProgram>()
    for (const programs of catalog.byDomain.values()) for (const program of programs) built.set(program.id, program)
    byIdCache.set(catalog, built)
    index = built
  }
  return index.get(id)
}

const onDomains = (url: string, domains: ReadonlyArray<string>): URL | undefined => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return undefined
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return undefined
  const host = parsed.hostname.toLowerCase()
  return domains.some((d) => host === d || host.endsWith(`.${d}`)) ? stripTracking(parsed) : undefined
}

export class PromoCopy extends Context.Service<
  PromoCopy,
  {
    generate(request: CopyRequest): Effect.Effect<GeneratedCopy | Unlinkable, DatabaseError>
  }
>()("app/ai/content/PromoCopy") {
  static readonly layer = Layer.effect(
    PromoCopy,
    Effect.gen(function* () {
      const matcher = yield* ProgramMatcher
      const linking = yield* LinkMatching
      const programFacts = yield* ProgramFacts
      const llm = yield* CopyLlm
      const db = yield* Database

      const generate = Effect.fn("PromoCopy.generate")(function* (request: CopyRequest) {
        const { catalog } = yield* matcher.current
        const program = programById(catalog, request.programId)
        if (program === undefined) {
          // The matcher's catalog holds programmes by domain: one without any is only in the store.
          const rows = yield* db.queryAs(IdRow, "SELECT id FROM programs WHERE id = $1", [request.programId])
          return rows.length > 0
            ? ({ kind: "no_store_domain" } satisfies Unlinkable)
            : ({ kind: "program_not_found" } satisfies Unlinkable)
        }
        const network = catalog.networks.get(program.networkId)
        if (program.status !== "active")
          return { kind: "program_inactive", status: program.status } satisfies Unlinkable
        if (!isUsableNetwork(network)) {
          const status = catalog.networks.get(program.networkId)?.status ?? "unknown"
          return { kind: "network_unavailable", network: program.networkId, status } satisfies Unlinkable
        }
        const domains = [...new Set(program.domains.map(normaliseDomain).filter((d) => d.length > 0))]
        if (domains.length === 0) return { kind: "no_store_domain" } satisfies Unlinkable

        const facts = yield* programFacts.factsFor(program)
        const deal = dealsOf(facts)[0]
        if (request.type === "deal_alert" && deal === undefined) return { kind: "no_deal" } satisfies Unlinkable

        // A deal alert links to the product; everything else to the store's home page.
        const productPage =
          request.type === "deal_alert" && deal !== undefined ? onDomains(deal.url, domains) : undefined
        const destination = productPage?.href ?? `https://${facts.domain}/`
        const made = yield* linking.linkFor({
          partner: request.partner,
          originalUrl: destination,
          destinationUrl: destination,
          selection: { program, network, domain: facts.domain, expectedEpc: expectedEarningsPer100Clicks(program) },
          productId: productPage !== undefined ? deal!.id : null
        })
        if (made === undefined) return { kind: "deep_link_unavailable", network: network.id } satisfies Unlinkable

        const storeDocs = domains.map((domain) => ({ store: program.name, store_domain: domain }))
        const fullDisclosure = disclosureFor(storeDocs)
        const disclosure =
          request.type !== "social"
            ? fullDisclosure
            : fullDisclosure.includes(AMAZON_DISCLOSURE)
              ? `#ad ${AMAZON_DISCLOSURE}`
              : SOCIAL_DISCLOSURE
        const placement: Placement = { link: request.trackingUrl(made.link.id), disclosure }

        const base = { facts, program, link: made.link, trackingUrl: placement.link, disclosure }
        const template = () => templateCopy(facts, request.type, request.tone, placement)
        if (!llm.enabled)
          return { ...base, copy: template(), generator: "template", fallback: null } satisfies GeneratedCopy

        const attempt = yield* Effect.result(llm.write(facts, request.type, request.tone))
        if (attempt._tag === "Success") {
          const copy = assembleWithin(
            request.type,
            attempt.success,
            placement,
            hashtagsFor(facts, makePicker(Math.random))
          )
          if (copy !== undefined) return { ...base, copy, generator: "llm", fallback: null } satisfies GeneratedCopy
        }
        const fallback =
          attempt._tag === "Failure"
            ? { reason: attempt.failure.reason, message: attempt.failure.message }
            : {
                reason: "invalid_output" as const,
                message: "the copy is too long for the type once the link and disclosure are added"
              }
        yield* Effect.logWarning("ai generate-content: LLM copy not used, falling back to the template", {
          program: program.id,
          type: request.type,
          ...fallback
        })
        return { ...base, copy: template(), generator: "template", fallback } satisfies GeneratedCopy
      })

      return PromoCopy.of({ generate })
    })
  )
}
