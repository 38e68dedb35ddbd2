// Shape of a network in networks.jsonl, plus the generation-only hints the
// programme generator needs (how a merchant id and link params look there).

export type Confidence = "H" | "M" | "U"
export type NetworkStatus = "active" | "paused" | "closed"

export interface NetworkRecord {
  readonly id: string
  readonly name: string
  readonly status: NetworkStatus
  readonly website: string
  /** Exact hosts; an entry "*.example.net" stands for any subdomain of example.net. */
  readonly click_hosts: ReadonlyArray<string>
  readonly deep_link_template: string | null
  readonly subid_param: string | null
  readonly unwrap_params: ReadonlyArray<string>
  readonly confidence: Confidence
  readonly successor_id: string | null
  readonly regions: ReadonlyArray<string>
  readonly account_params: Readonly<Record<string, string>>
}

export interface NetworkDef extends NetworkRecord {
  /**
   * Link params each programme carries, as fillPattern patterns. "=mid" copies
   * the programme's merchant_id; "=impact-host" derives a tracking host.
   */
  readonly link: Readonly<Record<string, string>>
  /** Pattern of the network's merchant ids. */
  readonly mid: string
  /** Typical cookie window, days. */
  readonly cookie: number
}

type Shorthand = Omit<
  NetworkDef,
  | "status"
  | "successor_id"
  | "account_params"
  | "link"
  | "unwrap_params"
  | "click_hosts"
  | "subid_param"
  | "deep_link_template"
  | "mid"
  | "cookie"
  | "regions"
  | "confidence"
> &
  Partial<NetworkDef>

/** Fills the common defaults so the data tables stay one object per network. */
export const net = (d: Shorthand): NetworkDef => ({
  id: d.id,
  name: d.name,
  status: d.status ?? "active",
  website: d.website,
  click_hosts: d.click_hosts ?? [],
  deep_link_template: d.deep_link_template ?? null,
  subid_param: d.subid_param ?? null,
  unwrap_params: d.unwrap_params ?? [],
  confidence: d.confidence ?? "U",
  successor_id: d.successor_id ?? null,
  regions: d.regions ?? ["GLOBAL"],
  account_params: d.account_params ?? {},
  link: d.link ?? {},
  mid: d.mid ?? "#####",
  cookie: d.cookie ?? 30
})
