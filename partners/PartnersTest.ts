import { Clock, Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import { dedupeTag, tagBaseFromName } from "../domain/links/partnerTag.ts"
import { hashKey, type Partner, Partners } from "./Partners.ts"

// Partners in memory, for tests of auth and handlers that need no DuckDB:
// the same tags (deduplicated, never a reserved one), key format, hash lookup,
// rotation and revocation as Partners.layer; the revenue share is the
// schema's default (0.70).

const DEFAULT_REVENUE_SHARE = 0.7

const newApiKey = () => `ak_${randomBytes(32).toString("base64url")}`

export const layerTest = Layer.sync(Partners, () => {
  const byHash = new Map<string, Partner>()
  const all: Array<Partner> = []
  const forget = (partnerId: number) => {
    for (const [hash, partner] of byHash) if (partner.id === partnerId) byHash.delete(hash)
  }
  return Partners.of({
    register: (input) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const base = tagBaseFromName(input.name)
        const tag = dedupeTag(base, new Set(all.map((partner) => partner.tag)))
        const apiKey = newApiKey()
        const partner: Partner = {
          id: all.length + 1,
          name: input.name,
          tag,
          email: input.email,
          appUrl: input.appUrl,
          description: input.description,
          revenueShare: DEFAULT_REVENUE_SHARE,
          createdAt: new Date(now)
        }
        all.push(partner)
        byHash.set(hashKey(apiKey), partner)
        return { partner, apiKey }
      }),
    authenticate: (key) => Effect.sync(() => byHash.get(hashKey(key))),
    rotate: (partnerId, currentKey) =>
      Effect.sync(() => {
        const partner = byHash.get(hashKey(currentKey))
        if (partner === undefined || partner.id !== partnerId) return undefined
        forget(partnerId)
        const apiKey = newApiKey()
        byHash.set(hashKey(apiKey), partner)
        return apiKey
      }),
    revoke: (ref, { reissue }) =>
      Effect.sync(() => {
        const partner = all.find((candidate) => ("id" in ref ? candidate.id === ref.id : candidate.tag === ref.tag))
        if (partner === undefined) return undefined
        forget(partner.id)
        const apiKey = reissue ? newApiKey() : null
        if (apiKey !== null) byHash.set(hashKey(apiKey), partner)
        return { partner, apiKey }
      })
  })
})
