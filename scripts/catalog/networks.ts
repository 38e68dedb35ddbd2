import type { NetworkDef, NetworkRecord } from "./network-types.ts"
import { otherNetworks } from "./networks-other.ts"
import { referenceNetworks } from "./networks-reference.ts"

export const networkDefs: ReadonlyArray<NetworkDef> = [...referenceNetworks, ...otherNetworks]

export const networksById: ReadonlyMap<string, NetworkDef> = new Map(networkDefs.map((n) => [n.id, n]))

/** Placeholder names of a template: "{enc(url)}" -> "enc(url)". */
export const placeholders = (template: string): Array<string> =>
  Array.from(template.matchAll(/\{([^{}]+)\}/g), (m) => m[1])

/** The built-in placeholders every template may use. */
export const BUILTIN_PLACEHOLDERS: ReadonlySet<string> = new Set(["sub", "url", "enc(url)"])

/** The JSONL record: field order fixed so the file diffs cleanly. */
export const networkRecord = (n: NetworkDef): NetworkRecord => ({
  id: n.id,
  name: n.name,
  status: n.status,
  website: n.website,
  click_hosts: n.click_hosts,
  deep_link_template: n.deep_link_template,
  subid_param: n.subid_param,
  unwrap_params: n.unwrap_params,
  confidence: n.confidence,
  successor_id: n.successor_id,
  regions: n.regions,
  account_params: n.account_params
})

/**
 * Fails loudly when a definition breaks an invariant the link service relies
 * on, so a bad edit never reaches the committed samples.
 */
export const checkNetworks = (): void => {
  const ids = new Set<string>()
  for (const n of networkDefs) {
    if (!/^[a-z0-9-]+$/.test(n.id)) throw new Error(`bad network id ${n.id}`)
    if (ids.has(n.id)) throw new Error(`duplicate network id ${n.id}`)
    ids.add(n.id)
    if (n.deep_link_template === null) continue
    if (n.status === "active" && n.subid_param === null) throw new Error(`${n.id}: template without subid_param`)
    for (const key of Object.keys(n.link)) {
      if (key in n.account_params) throw new Error(`${n.id}: ${key} is both an account and a link param`)
    }
    for (const p of placeholders(n.deep_link_template)) {
      if (!BUILTIN_PLACEHOLDERS.has(p) && !(p in n.account_params) && !(p in n.link)) {
        throw new Error(`${n.id}: placeholder {${p}} has no source`)
      }
    }
  }
  for (const n of networkDefs) {
    if (n.successor_id !== null && !ids.has(n.successor_id))
      throw new Error(`${n.id}: unknown successor ${n.successor_id}`)
  }
}
