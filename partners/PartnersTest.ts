import { Clock, Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import { dedupeTag, tagBaseFromName } from "../domain/links/partnerTag.ts"
import { hashKey, type Partner, Partners } from "./Partners.ts"

// Partners in memory, for tests of auth and handlers that need no DuckDB:
// the same tags (deduplicated), key format and hash lookup as Partners.layer;
// the revenue share is the schema's default (0.70).

const DEFAULT_REVENUE_SHARE = 0.7

export const layerTest = Layer.sync(Partners, () => {
  const byHash = new Map<string, Partner>()
  return Partners.of({
    register: (input) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const base = tagBaseFromName(input.name)
        const tag = dedupeTag(base, new Set([...byHash.values()].map((partner) => partner.tag)))
        const apiKey = `ak_${randomBytes(32).toString("base64url")}`
        const partner: Partner = {
          id: byHash.size + 1,
          name: input.name,
          tag,
          email: input.email,
          appUrl: input.appUrl,
          description: input.description,
          revenueShare: DEFAULT_REVENUE_SHARE,
          createdAt: new Date(now)
        }
        byHash.set(hashKey(apiKey), partner)
        return { partner, apiKey }
      }),
    authenticate: (key) => Effect.sync(() => byHash.get(hashKey(key)))
  })
})
