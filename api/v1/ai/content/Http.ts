import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { COPY_TYPES, type CopyType, type Tone, TONES } from "../../../../domain/copy/facts.ts"
import { PublicUrl } from "../../../../infra/PublicUrl.ts"
import { Api } from "../../../Api.ts"
import { BadRequest, badRequest, conflict, notFound } from "../../../errors.ts"
import { CurrentPartner } from "../../auth/Api.ts"
import { orUnavailable } from "../../dbUnavailable.ts"
import { PromoCopy, type Unlinkable } from "../../../../ai/content/PromoCopy.ts"
import { CatalogQueries } from "../../../../catalog/CatalogQueries.ts"

const MAX_PROGRAM_ID = 200
/** Programme numbers are PostgreSQL/DuckDB INTEGERs: 1..2^31-1. */
const MAX_PROGRAM_NUMBER = 2_147_483_647

const oneOf = <A extends string>(
  field: string,
  allowed: ReadonlyArray<A>,
  value: string
): Effect.Effect<A, BadRequest> =>
  (allowed as ReadonlyArray<string>).includes(value)
    ? Effect.succeed(value as A)
    : Effect.fail(
        badRequest(field, `must be one of ${allowed.join(", ")} (got '${value.slice(0, 40)}')`, { field, allowed })
      )

const unlinkable = (programId: string, reason: Unlinkable) => {
  switch (reason.kind) {
    case "program_not_found":
      return notFound("program", `no programme with id '${programId}'`)
    case "program_inactive":
      return conflict(
        "program_inactive",
        `programme '${programId}' is ${reason.status}, not active: no tracking link can be made for it`
      )
    case "network_unavailable":
      return conflict(
        "network_unavailable",
        `programme '${programId}' runs on network '${reason.network}' (${reason.status}), which is closed, paused or has no deep-link template: no tracking link can be made`
      )
    case "no_store_domain":
      return conflict(
        "no_store_domain",
        `programme '${programId}' has no store domain in the catalog, so there is no page to link to`
      )
    case "deep_link_unavailable":
      return conflict(
        "deep_link_unavailable",
        `network '${reason.network}' cannot build a link for programme '${programId}' (its template needs values the catalog does not have)`
      )
    case "no_deal":
      return conflict(
        "no_deal",
        `programme '${programId}' has no product with a verified price drop (against our own price history), so there is no deal to alert about; ` +
          "use type social, email or blog"
      )
  }
}

export const AiContentHandlers = HttpApiBuilder.group(
  Api,
  "aiContent",
  Effect.fn(function* (handlers) {
    const promo = yield* PromoCopy
    const publicUrl = yield* PublicUrl
    const catalog = yield* CatalogQueries

    // program_id names a programme by its id ('awin:1001') or its integer number (17).
    const programIdFrom = (programId: string | number) =>
      Effect.gen(function* () {
        if (typeof programId === "number") {
          if (programId < 1 || programId > MAX_PROGRAM_NUMBER)
            return yield* badRequest("program_id", `a programme number must be 1..${MAX_PROGRAM_NUMBER}`)
          const id = yield* orUnavailable(catalog.programIdOf(programId))
          if (id === undefined) return yield* notFound("program", `no programme with number ${programId}`)
          return id
        }
        const id = programId.trim()
        if (id.length === 0 || id.length > MAX_PROGRAM_ID)
          return yield* badRequest("program_id", `must be a programme id of 1..${MAX_PROGRAM_ID} characters`)
        return id
      })
    return handlers.handle("generateContent", ({ payload }) =>
      Effect.gen(function* () {
        const partner = yield* CurrentPartner
        const programId = yield* programIdFrom(payload.program_id)
        const type = yield* oneOf<CopyType>("type", COPY_TYPES, payload.type)
        const tone = yield* oneOf<Tone>("tone", TONES, payload.tone)
        const result = yield* orUnavailable(
          promo.generate({ partner, programId, type, tone, trackingUrl: (id) => publicUrl.to(`/t/${id}`) })
        )
        if ("kind" in result) return yield* unlinkable(programId, result)
        const { copy, facts, link, program } = result
        const number = yield* orUnavailable(catalog.numberOf(program.id))
        return {
          type,
          tone,
          body: copy.body,
          title: copy.title,
          subject: copy.subject,
          preheader: copy.preheader,
          call_to_action: copy.callToAction,
          hashtags: copy.hashtags,
          tracking_url: result.trackingUrl,
          tracking_id: link.id,
          destination_url: link.destinationUrl,
          disclosure: result.disclosure,
          program: { id: program.id, number: number ?? null, name: program.name, network: program.networkId },
          facts: {
            store: facts.store,
            domain: facts.domain,
            category: facts.category,
            products: facts.products.map((product) => ({
              id: product.id,
              title: product.title,
              brand: product.brand,
              price: product.price,
              currency: product.currency,
              reference_price: product.referencePrice,
              discount_percent: product.discountPercent,
              availability: product.availability
            }))
          },
          generator: result.generator,
          fallback: result.fallback
        }
      })
    )
  })
)
