import { numberNewPrograms } from "../../pipelines/catalog/programNumbers.ts"
import { Effect } from "effect"
import { Database } from "../../infra/Database.ts"

// Networks and programmes written straight into the store (columns of
// infra/schema.ts; the same SQL on PostgreSQL), for link-service tests that must not depend on the
// catalog pipelines. Templates follow shared/reference/affiliate-networks.md.

export interface FixtureNetwork {
  readonly id: string
  readonly name?: string
  readonly status?: string
  readonly clickHosts?: ReadonlyArray<string>
  readonly template: string | null
  readonly subidParam?: string
  readonly unwrapParams?: ReadonlyArray<string>
  readonly confidence?: string
  readonly accountParams?: Record<string, string>
}

export interface FixtureProgram {
  readonly networkId: string
  readonly merchantId: string
  readonly name?: string
  readonly domains: ReadonlyArray<string>
  readonly country?: string | null
  readonly commissionType?: string
  readonly commissionRate?: number
  readonly status?: string
  readonly deepLinkAllowed?: boolean
  readonly epc?: number | null
  readonly cookieDays?: number
  readonly linkParams?: Record<string, string>
}

export const NETWORKS: ReadonlyArray<FixtureNetwork> = [
  {
    id: "awin",
    clickHosts: ["www.awin1.com"],
    template: "https://www.awin1.com/cread.php?awinmid={mid}&awinaffid={pubId}&clickref={sub}&ued={enc(url)}",
    subidParam: "clickref",
    unwrapParams: ["ued"],
    accountParams: { pubId: "111111" }
  },
  {
    id: "cj",
    clickHosts: ["anrdoezrs.net", "dpbolvw.net", "jdoqocy.com", "kqzyfj.com", "tkqlhce.com"],
    template: "https://www.anrdoezrs.net/click-{PID}-{AID}?url={enc(url)}&sid={sub}",
    subidParam: "sid",
    unwrapParams: ["url"],
    confidence: "M",
    accountParams: { PID: "7654321" }
  },
  {
    id: "rakuten",
    clickHosts: ["click.linksynergy.com"],
    template: "https://click.linksynergy.com/deeplink?id={pubId}&mid={mid}&murl={enc(url)}&u1={sub}",
    subidParam: "u1",
    unwrapParams: ["murl"],
    accountParams: { pubId: "abcDEF123" }
  },
  {
    id: "impact",
    clickHosts: ["{brand}.sjv.io", "*.pxf.io", "7eer.net"],
    template: "https://{host}/c/{partnerId}/{adId}/{programId}?subId1={sub}&u={enc(url)}",
    subidParam: "subId1",
    unwrapParams: ["u"],
    accountParams: { partnerId: "998877" }
  },
  {
    id: "partnerize",
    clickHosts: ["prf.hn"],
    template: "https://prf.hn/click/camref:{camref}/pubref:{sub}/destination:{url}",
    subidParam: "pubref",
    unwrapParams: []
  },
  {
    id: "admitad",
    clickHosts: ["ad.admitad.com"],
    template: "https://ad.admitad.com/g/{hash}/?ulp={enc(url)}&subid={sub}",
    subidParam: "subid",
    unwrapParams: ["ulp"],
    confidence: "M"
  },
  {
    id: "shareasale",
    status: "closed",
    clickHosts: ["shareasale.com"],
    template: "https://shareasale.com/r.cfm?b={banner}&u={affId}&m={mid}&urllink={url}&afftrack={sub}",
    subidParam: "afftrack",
    unwrapParams: ["urllink"],
    accountParams: { affId: "55555", banner: "1" }
  },
  {
    id: "ebay",
    clickHosts: [],
    template: "{url}?mkevt=1&mkcid=1&mkrid={rotationId}&campid={campId}&toolid=10001&customid={sub}",
    subidParam: "customid",
    accountParams: { campId: "5338000000" }
  },
  { id: "pausednet", status: "paused", template: "https://paused.example/c?u={enc(url)}&s={sub}", subidParam: "s" },
  { id: "notemplate", template: null }
]

const BASE_PROGRAMS: ReadonlyArray<FixtureProgram> = [
  // Two networks for one merchant: CJ's 8% beats Awin's 5%.
  {
    networkId: "awin",
    merchantId: "1001",
    name: "Example Store (Awin)",
    domains: ["example-store.com"],
    commissionRate: 5
  },
  {
    networkId: "cj",
    merchantId: "2002",
    name: "Example Store (CJ)",
    domains: ["example-store.com"],
    commissionRate: 8,
    linkParams: { AID: "13579" }
  },
  // A subdomain with its own programme.
  {
    networkId: "rakuten",
    merchantId: "3003",
    name: "Example Outlet",
    domains: ["outlet.example-store.com"],
    commissionRate: 3,
    linkParams: { mid: "3003" }
  },
  // Country domains are separate merchants.
  {
    networkId: "awin",
    merchantId: "4001",
    name: "Gadget UK",
    domains: ["gadget.co.uk"],
    country: "GB",
    commissionRate: 4
  },
  {
    networkId: "rakuten",
    merchantId: "4002",
    name: "Gadget DE",
    domains: ["gadget.de"],
    country: "DE",
    commissionRate: 6,
    linkParams: { mid: "4002" }
  },
  // Rakuten needs `mid`: without it this programme cannot be linked, and the Awin one (lower rate) wins.
  {
    networkId: "rakuten",
    merchantId: "4102",
    name: "Lamp Shop (no mid)",
    domains: ["lamp-shop.com"],
    commissionRate: 12
  },
  { networkId: "awin", merchantId: "4101", name: "Lamp Shop", domains: ["lamp-shop.com"], commissionRate: 4 },
  // EPC beats a nominally higher rate.
  {
    networkId: "awin",
    merchantId: "5001",
    name: "Fashion A",
    domains: ["fashion-house.com"],
    commissionRate: 20,
    epc: 5
  },
  {
    networkId: "partnerize",
    merchantId: "5002",
    name: "Fashion P",
    domains: ["fashion-house.com"],
    commissionRate: 10,
    epc: 40,
    linkParams: { camref: "1101lq" }
  },
  // Only inactive options.
  {
    networkId: "shareasale",
    merchantId: "6001",
    name: "Closed Net Shop",
    domains: ["closed-net.com"],
    commissionRate: 10,
    linkParams: { mid: "600" }
  },
  {
    networkId: "awin",
    merchantId: "6002",
    name: "Paused Programme",
    domains: ["paused-shop.com"],
    status: "paused",
    commissionRate: 10
  },
  {
    networkId: "pausednet",
    merchantId: "6003",
    name: "Paused Network Shop",
    domains: ["paused-net.com"],
    commissionRate: 10
  },
  // A deep-link-capable programme wins over one that is not.
  {
    networkId: "awin",
    merchantId: "7001",
    name: "Homepage Only",
    domains: ["deeplink-test.com"],
    commissionRate: 30,
    deepLinkAllowed: false
  },
  {
    networkId: "admitad",
    merchantId: "7002",
    name: "Deep Linker",
    domains: ["deeplink-test.com"],
    commissionRate: 2,
    linkParams: { hash: "a1b2c3" }
  },
  // A homepage-only programme alone.
  {
    networkId: "awin",
    merchantId: "7101",
    name: "Only Homepage",
    domains: ["homepage-only.com"],
    commissionRate: 5,
    deepLinkAllowed: false
  },
  // IDN merchant (stored as punycode, as the pipeline normalises hosts).
  { networkId: "awin", merchantId: "8001", name: "Bücher", domains: ["xn--bcher-kva.de"], commissionRate: 7 },
  // Private suffix: each myshopify store is its own merchant.
  {
    networkId: "impact",
    merchantId: "9001",
    name: "Cool Shop",
    domains: ["coolshop.myshopify.com"],
    commissionRate: 9,
    linkParams: { host: "coolshop.sjv.io", adId: "1234", programId: "9001" }
  },
  // eBay appends its parameters to the merchant URL.
  {
    networkId: "ebay",
    merchantId: "ebay-us",
    name: "eBay US",
    domains: ["ebay.com"],
    commissionType: "CPS",
    commissionRate: 3,
    linkParams: { rotationId: "711-53200-19255-0" }
  },
  // A fixed CPA vs a CPS: 100 * 0.02 * 30 = 60 beats 1.6 * 10 = 16.
  { networkId: "awin", merchantId: "10001", name: "Insurance CPS", domains: ["insure-me.com"], commissionRate: 10 },
  {
    networkId: "cj",
    merchantId: "10002",
    name: "Insurance CPA",
    domains: ["insure-me.com"],
    commissionType: "CPA",
    commissionRate: 30,
    linkParams: { AID: "24680" }
  },
  // A template that cannot be filled (no `mid` for awin here).
  { networkId: "notemplate", merchantId: "11001", name: "No Template", domains: ["no-template.com"], commissionRate: 5 }
]

/** Awin programmes need their merchant id as `mid` in the template. */
/**
 * One merchant with a programme per country, both listing nike.com: Nike US
 * (CJ, `usRate` %, 5 by default) and Nike UK (Awin, 7 %): with no market
 * Nike UK pays more; a US shopper's market prefers Nike US.
 */
export const nikeProgrammes = (usRate = 5): ReadonlyArray<FixtureProgram> => [
  {
    networkId: "cj",
    merchantId: "5001",
    name: "Nike US",
    domains: ["nike.com"],
    country: "US",
    commissionRate: usRate,
    linkParams: { AID: "13579" }
  },
  {
    networkId: "awin",
    merchantId: "5002",
    name: "Nike UK",
    domains: ["nike.com"],
    country: "GB",
    commissionRate: 7,
    linkParams: { mid: "5002" }
  }
]

export const PROGRAMS: ReadonlyArray<FixtureProgram> = BASE_PROGRAMS.map((program) =>
  program.networkId === "awin" && program.linkParams === undefined
    ? { ...program, linkParams: { mid: program.merchantId } }
    : program
)

export const programId = (program: FixtureProgram) => `${program.networkId}:${program.merchantId}`

export const insertCatalog = (
  networks: ReadonlyArray<FixtureNetwork> = NETWORKS,
  programs: ReadonlyArray<FixtureProgram> = PROGRAMS
) =>
  Effect.gen(function* () {
    const db = yield* Database
    yield* db.transaction((tx) =>
      Effect.gen(function* () {
        for (const n of networks) {
          yield* tx.run("DELETE FROM networks WHERE id = $1", [n.id])
          yield* tx.run(
            `INSERT INTO networks (id, name, status, website, click_hosts, deep_link_template, subid_param,
               unwrap_params, confidence, successor_id, regions, account_params, feed, updated_at)
             VALUES ($1, $2, $3, NULL, ARRAY${tx.jsonList("$4")}, $5, $6, ARRAY${tx.jsonList("$7")}, $8, NULL,
               ARRAY['global'], $9::JSON, 'fixture', now())`,
            [
              n.id,
              n.name ?? n.id.toUpperCase(),
              n.status ?? "active",
              JSON.stringify(n.clickHosts ?? []),
              n.template,
              n.subidParam ?? null,
              JSON.stringify(n.unwrapParams ?? []),
              n.confidence ?? "H",
              JSON.stringify(n.accountParams ?? {})
            ]
          )
        }
        for (const p of programs) {
          const id = programId(p)
          yield* tx.run("DELETE FROM programs WHERE id = $1", [id])
          yield* tx.run("DELETE FROM program_domains WHERE program_id = $1", [id])
          yield* tx.run(
            `INSERT INTO programs (id, network_id, merchant_id, name, domains, country, category, commission_type,
               commission_rate, commission_currency, cookie_days, status, deep_link_allowed, epc, link_params, feed,
               updated_at)
             VALUES ($1, $2, $3, $4, ARRAY${tx.jsonList("$5")}, $6, 'General', $7, $8, 'USD', 30, $9, $10, $11,
               $12::JSON, 'fixture', now())`,
            [
              id,
              p.networkId,
              p.merchantId,
              p.name ?? id,
              JSON.stringify(p.domains),
              p.country ?? null,
              p.commissionType ?? "CPS",
              p.commissionRate ?? 5,
              p.status ?? "active",
              p.deepLinkAllowed ?? true,
              p.epc ?? null,
              JSON.stringify(p.linkParams ?? {})
            ]
          )
          for (const domain of p.domains)
            yield* tx.run("INSERT INTO program_domains VALUES ($1, $2, 'fixture')", [domain, id])
        }
        yield* numberNewPrograms(tx) // as the programmes loader does
      })
    )
  })
