import type { Category } from "../catalog/categories.ts"

// The stores whose products appear in the generated feeds. Each one is a
// programme in programs.jsonl (same network and name), and its link host is
// that programme's domain or a subdomain of it, so every product can be
// turned into an affiliate link. URL shapes imitate each store's real ones.
export interface Store {
  /** Item-id prefix and --stores key. */
  readonly key: string
  readonly name: string
  readonly network: string
  readonly host: string
  readonly region: "us" | "gb" | "eu"
  readonly country: string
  readonly currency: "USD" | "GBP" | "EUR"
  readonly categories: ReadonlyArray<Category>
  /** Only these product_type prefixes (e.g. a headphone shop). */
  readonly paths?: ReadonlyArray<string>
  /** Only these brands (a brand's own store). */
  readonly brands?: ReadonlyArray<string>
  /** {slug} and {sku} are substituted; {host} is the store host. */
  readonly link: string
  readonly image: string
  readonly skuDigits: number
  /** How prices end: .99, .95 or whole. */
  readonly cents: 99 | 95 | 0
  readonly weight: number
  /** Older Merchant Center spelling: "in stock" instead of "in_stock". */
  readonly legacyAvailability?: boolean
  /** XML: un-prefixed title/link/description, g: prefixed, or CDATA descriptions. */
  readonly xml?: "plain" | "prefixed" | "cdata"
}

const ALL: ReadonlyArray<Category> = ["Electronics", "Home & Kitchen", "Sports & Outdoors", "Toys & Games", "Beauty", "Fashion", "Books", "Garden", "Baby", "Pet Supplies", "Tools"]
const shopify = (host: string, cdn: string) => ({
  link: `https://${host}/products/{slug}?variant={sku}`,
  image: `https://cdn.shopify.com/s/files/1/${cdn}/products/{slug}.jpg?v=1731420000`
})

export const stores: ReadonlyArray<Store> = [
  // ---- us-electronics (GMC TSV, USD) ----------------------------------------------------
  { key: "BBY", name: "Best Buy", network: "impact", host: "www.bestbuy.com", region: "us", country: "US", currency: "USD", categories: ["Electronics", "Home & Kitchen"], link: "https://www.bestbuy.com/site/{slug}/{sku}.p?skuId={sku}", image: "https://pisces.bbystatic.com/image2/BestBuy_US/images/products/{sku}_sd.jpg", skuDigits: 7, cents: 99, weight: 14 },
  { key: "WMT", name: "Walmart", network: "impact", host: "www.walmart.com", region: "us", country: "US", currency: "USD", categories: ALL, link: "https://www.walmart.com/ip/{slug}/{sku}", image: "https://i5.walmartimages.com/seo/{slug}_{sku}.jpeg", skuDigits: 9, cents: 0, weight: 12 },
  { key: "TGT", name: "Target", network: "impact", host: "www.target.com", region: "us", country: "US", currency: "USD", categories: ["Electronics", "Home & Kitchen", "Toys & Games", "Baby", "Pet Supplies", "Books", "Beauty"], link: "https://www.target.com/p/{slug}/-/A-{sku}", image: "https://target.scene7.com/is/image/Target/GUEST_{sku}", skuDigits: 8, cents: 99, weight: 10 },
  { key: "NEWEGG", name: "Newegg", network: "rakuten", host: "www.newegg.com", region: "us", country: "US", currency: "USD", categories: ["Electronics"], link: "https://www.newegg.com/{slug}/p/N82E168{sku}", image: "https://c1.neweggimages.com/ProductImageCompressAll1280/{sku}.jpg", skuDigits: 8, cents: 99, weight: 7 },
  { key: "BH", name: "B&H Photo", network: "impact", host: "www.bhphotovideo.com", region: "us", country: "US", currency: "USD", categories: ["Electronics"], link: "https://www.bhphotovideo.com/c/product/{sku}-REG/{slug}.html", image: "https://www.bhphotovideo.com/images/images1000x1000/{slug}_{sku}.jpg", skuDigits: 7, cents: 95, weight: 6 },
  { key: "HD", name: "The Home Depot", network: "impact", host: "www.homedepot.com", region: "us", country: "US", currency: "USD", categories: ["Tools", "Garden", "Home & Kitchen"], link: "https://www.homedepot.com/p/{slug}/{sku}", image: "https://images.thdstatic.com/productImages/{sku}/svn/{slug}-64_1000.jpg", skuDigits: 9, cents: 0, weight: 8, legacyAvailability: true },
  { key: "WF", name: "Wayfair", network: "cj", host: "www.wayfair.com", region: "us", country: "US", currency: "USD", categories: ["Home & Kitchen", "Garden"], link: "https://www.wayfair.com/kitchen-tabletop/pdp/{slug}-w{sku}.html", image: "https://assets.wfcdn.com/im/{sku}/resize-h800-w800/{slug}.jpg", skuDigits: 9, cents: 99, weight: 6 },
  { key: "SONY", name: "Sony Electronics", network: "impact", host: "electronics.sony.com", region: "us", country: "US", currency: "USD", categories: ["Electronics"], brands: ["Sony"], link: "https://electronics.sony.com/{slug}/p/{sku}", image: "https://electronics.sony.com/image/{sku}?fmt=png-alpha&wid=720", skuDigits: 6, cents: 99, weight: 4 },
  { key: "DJI", name: "DJI Store", network: "impact", host: "store.dji.com", region: "us", country: "US", currency: "USD", categories: ["Electronics"], brands: ["DJI"], link: "https://store.dji.com/product/{slug}?vid={sku}", image: "https://se-cdn.djiits.com/tpc/uploads/spu/cover/{sku}.png", skuDigits: 6, cents: 0, weight: 2 },
  { key: "LLA", name: "Loud Lab Audio", network: "refersion", host: "loudlabaudio.myshopify.com", region: "us", country: "US", currency: "USD", categories: ["Electronics"], paths: ["Electronics > Audio"], ...shopify("loudlabaudio.myshopify.com", "0618/4421/0327"), skuDigits: 11, cents: 0, weight: 3 },
  { key: "BNH", name: "Brightnest Home Store", network: "impact", host: "store.brightnesthome.com", region: "us", country: "US", currency: "USD", categories: ["Home & Kitchen"], ...shopify("store.brightnesthome.com", "0733/2210/5521"), skuDigits: 11, cents: 99, weight: 4 },
  { key: "FBT", name: "Fat Brain Toys", network: "awin", host: "www.fatbraintoys.com", region: "us", country: "US", currency: "USD", categories: ["Toys & Games"], link: "https://www.fatbraintoys.com/toy_companies/{slug}.cfm?sku={sku}", image: "https://www.fatbraintoys.com/images/products/large/{sku}.jpg", skuDigits: 6, cents: 95, weight: 4 },
  { key: "CHEWY", name: "Chewy", network: "impact", host: "www.chewy.com", region: "us", country: "US", currency: "USD", categories: ["Pet Supplies"], link: "https://www.chewy.com/{slug}/dp/{sku}", image: "https://image.chewy.com/is/image/catalog/{sku}_MAIN", skuDigits: 6, cents: 99, weight: 4 },
  { key: "CRF", name: "Crutchfield", network: "cj", host: "www.crutchfield.com", region: "us", country: "US", currency: "USD", categories: ["Electronics"], paths: ["Electronics > Audio", "Electronics > TVs", "Electronics > Smart Home"], link: "https://www.crutchfield.com/p_{sku}/{slug}.html", image: "https://images.crutchfieldonline.com/ImageHandler/trim/750/457/products/{sku}.jpg", skuDigits: 9, cents: 99, weight: 4 },
  // ---- uk-lifestyle (GMC RSS XML, GBP) -----------------------------------------------------
  { key: "JL", name: "John Lewis", network: "awin", host: "www.johnlewis.com", region: "gb", country: "GB", currency: "GBP", categories: ["Home & Kitchen", "Electronics", "Beauty", "Fashion", "Toys & Games", "Baby"], link: "https://www.johnlewis.com/{slug}/p{sku}", image: "https://johnlewis.scene7.com/is/image/JohnLewis/{sku}", skuDigits: 9, cents: 0, weight: 10, xml: "plain" },
  { key: "ARG", name: "Argos", network: "awin", host: "www.argos.co.uk", region: "gb", country: "GB", currency: "GBP", categories: ["Electronics", "Home & Kitchen", "Toys & Games", "Garden", "Tools", "Sports & Outdoors"], link: "https://www.argos.co.uk/product/{sku}", image: "https://media.4rgos.it/i/Argos/{sku}_R_Z001A", skuDigits: 7, cents: 99, weight: 10, xml: "prefixed" },
  { key: "CUR", name: "Currys", network: "awin", host: "www.currys.co.uk", region: "gb", country: "GB", currency: "GBP", categories: ["Electronics", "Home & Kitchen"], link: "https://www.currys.co.uk/products/{slug}-{sku}.html", image: "https://media.currys.biz/i/currysprod/{sku}", skuDigits: 8, cents: 99, weight: 6, xml: "plain" },
  { key: "ASOS", name: "ASOS", network: "awin", host: "www.asos.com", region: "gb", country: "GB", currency: "GBP", categories: ["Fashion", "Beauty"], link: "https://www.asos.com/{slug}/prd/{sku}", image: "https://images.asos-media.com/products/{slug}/{sku}-1", skuDigits: 9, cents: 0, weight: 9, xml: "prefixed" },
  { key: "BOOTS", name: "Boots", network: "awin", host: "www.boots.com", region: "gb", country: "GB", currency: "GBP", categories: ["Beauty", "Baby"], link: "https://www.boots.com/{slug}-{sku}", image: "https://boots.scene7.com/is/image/Boots/{sku}", skuDigits: 8, cents: 0, weight: 6, xml: "plain" },
  { key: "LF", name: "Lookfantastic", network: "awin", host: "www.lookfantastic.com", region: "gb", country: "GB", currency: "GBP", categories: ["Beauty"], link: "https://www.lookfantastic.com/{slug}/{sku}.html", image: "https://static.thcdn.com/images/large/original/productimg/1600/1600/{sku}.jpg", skuDigits: 8, cents: 0, weight: 5, xml: "prefixed" },
  { key: "JD", name: "JD Sports", network: "awin", host: "www.jdsports.co.uk", region: "gb", country: "GB", currency: "GBP", categories: ["Fashion", "Sports & Outdoors"], paths: ["Fashion", "Sports & Outdoors > Running"], link: "https://www.jdsports.co.uk/product/{slug}/{sku}/", image: "https://i8.amplience.net/i/jpl/jd_{sku}_a", skuDigits: 6, cents: 0, weight: 6, xml: "plain" },
  { key: "DECUK", name: "Decathlon UK", network: "awin", host: "www.decathlon.co.uk", region: "gb", country: "GB", currency: "GBP", categories: ["Sports & Outdoors"], link: "https://www.decathlon.co.uk/p/{slug}/_/R-p-{sku}", image: "https://contents.mediadecathlon.com/p{sku}/k$/picture.jpg", skuDigits: 6, cents: 99, weight: 6, xml: "plain" },
  { key: "MS", name: "Marks & Spencer", network: "awin", host: "www.marksandspencer.com", region: "gb", country: "GB", currency: "GBP", categories: ["Fashion", "Home & Kitchen", "Beauty"], link: "https://www.marksandspencer.com/{slug}/p/clp{sku}", image: "https://asset1.cxnmarksandspencer.com/is/image/mandstarget/{sku}", skuDigits: 8, cents: 0, weight: 6, xml: "plain" },
  { key: "WAT", name: "Waterstones", network: "awin", host: "www.waterstones.com", region: "gb", country: "GB", currency: "GBP", categories: ["Books"], link: "https://www.waterstones.com/book/{slug}/{sku}", image: "https://cdn.waterstones.com/bookjackets/large/{sku}.jpg", skuDigits: 8, cents: 99, weight: 4, xml: "cdata" },
  { key: "SMY", name: "Smyths Toys", network: "awin", host: "www.smythstoys.com", region: "gb", country: "GB", currency: "GBP", categories: ["Toys & Games"], link: "https://www.smythstoys.com/uk/en-gb/toys/{slug}/p/{sku}", image: "https://www.smythstoys.com/medias/{sku}.jpg", skuDigits: 6, cents: 99, weight: 6, xml: "prefixed" },
  { key: "PAH", name: "Pets at Home", network: "awin", host: "www.petsathome.com", region: "gb", country: "GB", currency: "GBP", categories: ["Pet Supplies"], link: "https://www.petsathome.com/product/{slug}/{sku}P", image: "https://media.petsathome.com/wcsstore/pah-cas01/300/{sku}P.jpg", skuDigits: 7, cents: 0, weight: 4, xml: "plain" },
  { key: "MP", name: "Mamas & Papas", network: "awin", host: "www.mamasandpapas.com", region: "gb", country: "GB", currency: "GBP", categories: ["Baby"], link: "https://www.mamasandpapas.com/products/{slug}-{sku}", image: "https://www.mamasandpapas.com/cdn/shop/products/{sku}_1.jpg", skuDigits: 7, cents: 0, weight: 3, xml: "plain" },
  { key: "LAK", name: "Lakeland", network: "awin", host: "www.lakeland.co.uk", region: "gb", country: "GB", currency: "GBP", categories: ["Home & Kitchen"], link: "https://www.lakeland.co.uk/{sku}/{slug}", image: "https://www.lakeland.co.uk/medias/{sku}.jpg", skuDigits: 5, cents: 99, weight: 3, xml: "cdata" },
  { key: "HH", name: "Hearth & Hound", network: "awin", host: "hearthandhound.myshopify.com", region: "gb", country: "GB", currency: "GBP", categories: ["Pet Supplies"], ...shopify("hearthandhound.myshopify.com", "0562/7731/0412"), skuDigits: 11, cents: 0, weight: 2, xml: "plain" },
  { key: "BQ", name: "B&Q", network: "awin", host: "www.diy.com", region: "gb", country: "GB", currency: "GBP", categories: ["Tools", "Garden"], link: "https://www.diy.com/departments/{slug}/{sku}_BQ.prd", image: "https://media.diy.com/is/image/Kingfisher/{sku}_01c", skuDigits: 13, cents: 0, weight: 4, xml: "prefixed" },
  // ---- eu-awin (Awin CSV, EUR) -------------------------------------------------------------------
  { key: "ZAL", name: "Zalando DE", network: "awin", host: "www.zalando.de", region: "eu", country: "DE", currency: "EUR", categories: ["Fashion", "Sports & Outdoors", "Beauty"], paths: ["Fashion", "Sports & Outdoors > Running", "Beauty"], link: "https://www.zalando.de/{slug}-za{sku}.html", image: "https://img01.ztat.net/article/spp-media-p1/{sku}.jpg", skuDigits: 8, cents: 95, weight: 10 },
  { key: "MMDE", name: "MediaMarkt DE", network: "awin", host: "www.mediamarkt.de", region: "eu", country: "DE", currency: "EUR", categories: ["Electronics", "Home & Kitchen"], link: "https://www.mediamarkt.de/de/product/_{slug}-{sku}.html", image: "https://assets.mmsrg.com/isr/166325/c1/-/ASSET_MMS_{sku}", skuDigits: 7, cents: 0, weight: 10 },
  { key: "OTTO", name: "OTTO", network: "awin", host: "www.otto.de", region: "eu", country: "DE", currency: "EUR", categories: ["Home & Kitchen", "Electronics", "Fashion", "Toys & Games", "Garden", "Baby"], link: "https://www.otto.de/p/{slug}-{sku}/", image: "https://i.otto.de/i/otto/{sku}", skuDigits: 10, cents: 99, weight: 9 },
  { key: "DGL", name: "Douglas", network: "awin", host: "www.douglas.de", region: "eu", country: "DE", currency: "EUR", categories: ["Beauty"], link: "https://www.douglas.de/de/p/{sku}", image: "https://media.douglas.de/medias/{sku}.jpg", skuDigits: 10, cents: 95, weight: 5 },
  { key: "THA", name: "Thalia", network: "awin", host: "www.thalia.de", region: "eu", country: "DE", currency: "EUR", categories: ["Books", "Toys & Games"], link: "https://www.thalia.de/shop/home/artikeldetails/A{sku}", image: "https://images.thalia.media/-/BF800-80-1/{sku}/{slug}.jpg", skuDigits: 10, cents: 0, weight: 5 },
  { key: "TCH", name: "Tchibo", network: "awin", host: "www.tchibo.de", region: "eu", country: "DE", currency: "EUR", categories: ["Home & Kitchen"], link: "https://www.tchibo.de/{slug}-p{sku}.html", image: "https://www.tchibo.de/newmedia/art_img/MAIN-IMPORTED/{sku}.jpg", skuDigits: 9, cents: 99, weight: 4 },
  { key: "DECFR", name: "Decathlon FR", network: "awin", host: "www.decathlon.fr", region: "eu", country: "FR", currency: "EUR", categories: ["Sports & Outdoors"], link: "https://www.decathlon.fr/p/{slug}/_/R-p-{sku}", image: "https://contents.mediadecathlon.com/p{sku}/k$/picture.jpg", skuDigits: 6, cents: 99, weight: 6 },
  { key: "FNAC", name: "Fnac", network: "awin", host: "www.fnac.com", region: "eu", country: "FR", currency: "EUR", categories: ["Electronics", "Books", "Toys & Games"], link: "https://www.fnac.com/a{sku}/{slug}", image: "https://static.fnac-static.com/multimedia/Images/FR/NR/{sku}.jpg", skuDigits: 8, cents: 99, weight: 7 },
  { key: "DARTY", name: "Darty", network: "awin", host: "www.darty.com", region: "eu", country: "FR", currency: "EUR", categories: ["Electronics", "Home & Kitchen"], link: "https://www.darty.com/nav/achat/{slug}__{sku}.html", image: "https://image.darty.com/{sku}.jpg", skuDigits: 7, cents: 99, weight: 5 },
  { key: "ECI", name: "El Corte Inglés", network: "awin", host: "www.elcorteingles.es", region: "eu", country: "ES", currency: "EUR", categories: ["Fashion", "Home & Kitchen", "Electronics", "Beauty"], link: "https://www.elcorteingles.es/A{sku}-{slug}/", image: "https://sgfm.elcorteingles.es/SGFM/dctm/MEDIA03/{sku}.jpg", skuDigits: 8, cents: 0, weight: 6 },
  { key: "MW", name: "MediaWorld", network: "awin", host: "www.mediaworld.it", region: "eu", country: "IT", currency: "EUR", categories: ["Electronics"], link: "https://www.mediaworld.it/it/product/_{slug}-{sku}.html", image: "https://assets.mmsrg.com/isr/166325/c1/-/ASSET_MW_{sku}", skuDigits: 6, cents: 99, weight: 5 },
  { key: "ZOO", name: "zooplus DE", network: "awin", host: "www.zooplus.de", region: "eu", country: "DE", currency: "EUR", categories: ["Pet Supplies"], link: "https://www.zooplus.de/shop/{slug}/{sku}", image: "https://media.zooplus.com/bilder/{sku}.jpg", skuDigits: 7, cents: 99, weight: 4 },
  { key: "NLL", name: "Nordlicht Living", network: "awin", host: "nordlicht-living.myshopify.com", region: "eu", country: "DE", currency: "EUR", categories: ["Home & Kitchen"], ...shopify("nordlicht-living.myshopify.com", "0845/1129/7064"), skuDigits: 11, cents: 0, weight: 2 },
  { key: "GMG", name: "Gartenmöbel Günstig", network: "awin", host: "www.xn--gartenmbel-gnstig-5zb3j.de", region: "eu", country: "DE", currency: "EUR", categories: ["Garden"], link: "https://www.xn--gartenmbel-gnstig-5zb3j.de/produkt/{slug}-{sku}", image: "https://www.xn--gartenmbel-gnstig-5zb3j.de/media/{sku}.jpg", skuDigits: 6, cents: 0, weight: 3 }
]

/** Resolves a --stores value: region names (us, gb, eu), store keys, or "all". */
export const selectStores = (spec: string): Array<Store> => {
  const out: Array<Store> = []
  for (const part of spec.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
    const matches = part === "all" ? stores : stores.filter((s) => s.region === part.toLowerCase() || s.key === part.toUpperCase())
    if (matches.length === 0) throw new Error(`unknown store or region: ${part}`)
    for (const s of matches) if (!out.includes(s)) out.push(s)
  }
  return out
}
