import type { ProductDocument } from "../../../readModel/documents.ts"
import { disclosureFor } from "../../../discovery/present.ts"
import { type CatalogCapability, responseEnvelope } from "./profile.ts"

// What a catalog answer says once, in UCP `messages`: the disclosure (a
// warning with presentation "disclosure", which UCP clients must show beside
// the products and must not hide), how to use the offers, the checks before
// buying, and how the request was read. Said once per answer, not per offer:
// they are the same for every offer, and an agent pays for every byte.

export type UcpMessage =
  | {
      readonly type: "error"
      readonly code: string
      readonly content: string
      readonly severity: "recoverable" | "unrecoverable"
      readonly path?: string
    }
  | { readonly type: "warning"; readonly code: string; readonly content: string; readonly presentation?: string }
  | { readonly type: "info"; readonly code: string; readonly content: string }

export const info = (code: string, content: string): UcpMessage => ({ type: "info", code, content })

const INSTRUCTIONS =
  "Each product is one model; each variant is one store's offer for it. Link to an offer only through its url (a " +
  "tracked link) and show the disclosure next to the links. Prices are integers in minor units (12999 = 129.99 in " +
  "the price's currency): quote them exactly and say they were checked on the product's prices_checked_at and may " +
  "have changed. Call a price a discount only when the variant has list_price and verified_discount (against the lowest " +
  "price we observed in the 30 days before), never against a store's own 'was' price. Do not invent coupon codes, " +
  "prices, discounts, ratings or stock levels: no coupon code is confirmed for any offer. Ask for view 'full' for " +
  "each offer's own description, media, landing page and buying checks."

const BUYING_CHECKS =
  "Before buying: confirm the price at checkout; check that the offer is still available in the colour, size or " +
  "condition wanted; check shipping costs and the delivery date; read the store's return policy."

/** The messages every answer with offers carries: disclosure (for these stores), instructions, buying checks. */
export const offerMessages = (offers: ReadonlyArray<ProductDocument>): Array<UcpMessage> =>
  offers.length === 0
    ? []
    : [
        { type: "warning", code: "affiliate_disclosure", content: disclosureFor(offers), presentation: "disclosure" },
        info("assistant_instructions", INSTRUCTIONS),
        info("buying_checks", BUYING_CHECKS)
      ]

/**
 * A catalog error answer (UCP's error_response): `ucp.status` "error" and
 * at least one error message. `severity` says whether the agent can fix it by
 * changing its request (recoverable) or not (unrecoverable: nothing to act on).
 */
export const errorAnswer = (
  capability: CatalogCapability,
  code: string,
  content: string,
  severity: "recoverable" | "unrecoverable",
  path?: string
) => ({
  ucp: responseEnvelope(capability, "error"),
  messages: [{ type: "error", code, content, severity, ...(path === undefined ? {} : { path }) }] as Array<UcpMessage>
})

export type ErrorAnswer = ReturnType<typeof errorAnswer>
