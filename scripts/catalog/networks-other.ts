import { net } from "./network-types.ts"

// Real networks and brand programmes beyond the shared reference. Their
// link formats come from public links and docs we could not verify, so every
// template here is confidence "U"; null where links are only made in the
// network's own tools. Closed networks point at where their programmes went.
export const otherNetworks = [
  // ---- Europe ---------------------------------------------------------------
  net({
    id: "affilinet",
    name: "affilinet",
    status: "closed",
    successor_id: "awin",
    website: "https://www.affili.net",
    click_hosts: ["partners.webmasterplan.com"],
    deep_link_template:
      "https://partners.webmasterplan.com/click.asp?ref={ref}&site={site}&type=text&tnb=1&subid={sub}&diurl={enc(url)}",
    subid_param: "subid",
    unwrap_params: ["diurl"],
    regions: ["DE", "AT", "CH", "FR", "NL", "GB", "ES"],
    account_params: { ref: "662841" },
    link: { site: "=mid" }
  }),
  net({
    id: "zanox",
    name: "zanox",
    status: "closed",
    successor_id: "awin",
    website: "https://www.zanox.com",
    click_hosts: ["ad.zanox.com"],
    deep_link_template: "https://ad.zanox.com/ppc/?{adId}C{adspaceId}&ULP=[[{enc(url)}]]&zpar0=[[{sub}]]",
    subid_param: "zpar0",
    unwrap_params: ["ULP"],
    regions: ["DE", "FR", "ES", "IT", "NL", "GB", "SE", "PL"],
    account_params: { adspaceId: "2218874" },
    link: { adId: "########" },
    mid: "####"
  }),
  net({
    id: "belboon",
    name: "belboon",
    website: "https://www.belboon.com",
    click_hosts: ["www1.belboon.de"],
    deep_link_template: "https://www1.belboon.de/adtracking/{adId}.html?subid={sub}&deeplink={enc(url)}",
    subid_param: "subid",
    unwrap_params: ["deeplink"],
    regions: ["DE", "AT", "CH"],
    link: { adId: "0########" }
  }),
  net({
    id: "adcell",
    name: "ADCELL",
    website: "https://www.adcell.de",
    click_hosts: ["t.adcell.com", "www.adcell.de"],
    deep_link_template: "https://t.adcell.com/p/click?promoId={promoId}&slotId={slotId}&subId={sub}&param0={enc(url)}",
    subid_param: "subId",
    unwrap_params: ["param0"],
    regions: ["DE", "AT", "CH"],
    account_params: { slotId: "91827" },
    link: { promoId: "######" },
    mid: "####"
  }),
  net({
    id: "affiliando",
    name: "Affiliando",
    status: "paused",
    website: "https://www.affiliando.com",
    regions: ["DE", "AT", "CH"]
  }),
  net({
    id: "financeads",
    name: "financeAds",
    website: "https://www.financeads.com",
    click_hosts: ["www.financeads.net"],
    deep_link_template: "https://www.financeads.net/tc.php?t={pubId}C{progId}T&subid={sub}&deeplink={enc(url)}",
    subid_param: "subid",
    unwrap_params: ["deeplink"],
    regions: ["DE", "AT", "CH", "FR", "ES", "GB"],
    account_params: { pubId: "28174" },
    link: { progId: "=mid" },
    mid: "####"
  }),
  net({ id: "copecart", name: "CopeCart", website: "https://www.copecart.com", regions: ["DE", "AT", "CH"] }),
  net({ id: "elopage", name: "elopage", website: "https://elopage.com", regions: ["DE", "AT", "CH"] }),
  net({
    id: "digistore24",
    name: "Digistore24",
    website: "https://www.digistore24.com",
    click_hosts: ["www.digistore24.com", "digistore24.com"],
    deep_link_template: "https://www.digistore24.com/redir/{productId}/{affiliate}/?cam={sub}",
    subid_param: "cam",
    regions: ["GLOBAL"],
    account_params: { affiliate: "brightpick" },
    link: { productId: "=mid" },
    mid: "######",
    cookie: 180
  }),
  net({
    id: "effiliation",
    name: "Effiliation",
    website: "https://www.effiliation.com",
    click_hosts: ["track.effiliation.com"],
    deep_link_template:
      "https://track.effiliation.com/servlet/effi.redir?id_compteur={compteur}&url={enc(url)}&effi_id={sub}",
    subid_param: "effi_id",
    unwrap_params: ["url"],
    regions: ["FR", "BE", "ES", "IT", "DE"],
    link: { compteur: "2#######" }
  }),
  net({
    id: "kwanko",
    name: "Kwanko",
    website: "https://www.kwanko.com",
    click_hosts: ["action.metaffiliation.com", "tracking.kwanko.com"],
    deep_link_template: "https://action.metaffiliation.com/trk.php?mclic={mclic}&redir={enc(url)}&argsite={sub}",
    subid_param: "argsite",
    unwrap_params: ["redir"],
    regions: ["FR", "ES", "IT", "DE", "PT", "BR"],
    link: { mclic: "P#####S####" }
  }),
  net({
    id: "netaffiliation",
    name: "NetAffiliation",
    status: "closed",
    successor_id: "kwanko",
    website: "https://www.netaffiliation.com",
    click_hosts: ["action.netaffiliation.com"],
    deep_link_template: "https://action.netaffiliation.com/trk.php?mclic={mclic}&redir={enc(url)}&argsite={sub}",
    subid_param: "argsite",
    unwrap_params: ["redir"],
    regions: ["FR"],
    link: { mclic: "P#####S####" }
  }),
  net({
    id: "timeone",
    name: "TimeOne",
    website: "https://www.timeone-group.com",
    click_hosts: ["tracking.publicidees.com"],
    deep_link_template:
      "https://tracking.publicidees.com/clic.php?progid={progId}&partid={partId}&dpl={enc(url)}&cb={sub}",
    subid_param: "cb",
    unwrap_params: ["dpl"],
    regions: ["FR", "ES", "IT"],
    account_params: { partId: "61827" },
    link: { progId: "=mid" },
    mid: "####"
  }),
  net({ id: "affilae", name: "Affilae", website: "https://affilae.com", regions: ["FR"] }),
  net({
    id: "optimise",
    name: "Optimise",
    website: "https://www.optimisemedia.com",
    click_hosts: ["clk.omgt1.com", "clk.omgt3.com", "track.in.omgpm.com"],
    deep_link_template: "https://clk.omgt1.com/?AID={aid}&PID={pid}&WID={wid}&UID={sub}&r={enc(url)}",
    subid_param: "UID",
    unwrap_params: ["r"],
    regions: ["GB", "IN", "SG", "MY", "AU"],
    account_params: { aid: "1048213", wid: "58214" },
    link: { pid: "=mid" }
  }),
  net({
    id: "affiliate-future",
    name: "Affiliate Future",
    website: "https://www.affiliatefuture.com",
    click_hosts: ["scripts.affiliatefuture.com"],
    deep_link_template:
      "https://scripts.affiliatefuture.com/AFClick.asp?affiliateID={affId}&merchantID={merchantId}&programmeID={programmeId}&mediaID=0&tracking={sub}&url={enc(url)}",
    subid_param: "tracking",
    unwrap_params: ["url"],
    regions: ["GB", "US"],
    account_params: { affId: "318274" },
    link: { merchantId: "=mid", programmeId: "####" },
    mid: "####"
  }),
  net({
    id: "paid-on-results",
    name: "Paid On Results",
    website: "https://www.paidonresults.com",
    click_hosts: ["www.paidonresults.net"],
    deep_link_template: "https://www.paidonresults.net/c/{affId}/{progId}/0/0?subid={sub}&deeplink={enc(url)}",
    subid_param: "subid",
    unwrap_params: ["deeplink"],
    regions: ["GB"],
    account_params: { affId: "41927" },
    link: { progId: "=mid" },
    mid: "####"
  }),
  net({ id: "buy-at", name: "buy.at", status: "closed", website: "https://www.buy.at", regions: ["GB"] }),
  net({
    id: "affiliate-gateway",
    name: "The Affiliate Gateway",
    website: "https://www.theaffiliategateway.com",
    click_hosts: ["www.tagserve.com"],
    deep_link_template:
      "https://www.tagserve.com/clickServlet?AID={aid}&MID={mid}&PID={pid}&SID={sub}&deeplink={enc(url)}",
    subid_param: "SID",
    unwrap_params: ["deeplink"],
    regions: ["GB", "AU", "US"],
    account_params: { pid: "2837" },
    link: { aid: "####", mid: "=mid" },
    mid: "###"
  }),
  net({
    id: "partner-ads",
    name: "Partner-ads",
    website: "https://www.partner-ads.com",
    click_hosts: ["www.partner-ads.com"],
    deep_link_template:
      "https://www.partner-ads.com/dk/klikbanner.php?partnerid={partnerId}&bannerid={bannerId}&uid={sub}&htmlurl={enc(url)}",
    subid_param: "uid",
    unwrap_params: ["htmlurl"],
    regions: ["DK", "NO", "SE", "FI"],
    account_params: { partnerId: "29184" },
    link: { bannerId: "#####" }
  }),
  net({
    id: "adservice",
    name: "Adservice",
    website: "https://www.adservice.com",
    click_hosts: ["www.adservicemedia.dk"],
    deep_link_template:
      "https://www.adservicemedia.dk/cgi-bin/click.pl?bid={bid}&media_id={mediaId}&sub={sub}&deeplink={enc(url)}",
    subid_param: "sub",
    unwrap_params: ["deeplink"],
    regions: ["DK", "SE", "NO", "FI"],
    account_params: { mediaId: "18274" },
    link: { bid: "=mid" },
    mid: "####"
  }),
  net({
    id: "addrevenue",
    name: "Addrevenue",
    website: "https://addrevenue.io",
    click_hosts: ["addrevenue.io"],
    deep_link_template: "https://addrevenue.io/t?c={channelId}&a={advertiserId}&epi={sub}&url={enc(url)}",
    subid_param: "epi",
    unwrap_params: ["url"],
    regions: ["SE", "NO", "DK", "FI"],
    account_params: { channelId: "1928374" },
    link: { advertiserId: "=mid" },
    mid: "#######"
  }),
  net({
    id: "adrecord",
    name: "Adrecord",
    website: "https://www.adrecord.com",
    click_hosts: ["click.adrecord.com"],
    deep_link_template: "https://click.adrecord.com/?c={channelId}&p={progId}&epi={sub}&url={enc(url)}",
    subid_param: "epi",
    unwrap_params: ["url"],
    regions: ["SE", "NO", "DK", "FI"],
    account_params: { channelId: "38271" },
    link: { progId: "=mid" },
    mid: "####"
  }),
  net({
    id: "bol-partner",
    name: "bol.com Partnerprogramma",
    website: "https://partner.bol.com",
    click_hosts: ["partner.bol.com"],
    deep_link_template: "https://partner.bol.com/click/click?p=2&t=url&s={siteId}&f=TXL&url={enc(url)}&name={sub}",
    subid_param: "name",
    unwrap_params: ["url"],
    regions: ["NL", "BE"],
    account_params: { siteId: "1283746" },
    cookie: 30
  }),
  net({
    id: "2performant",
    name: "2Performant",
    website: "https://www.2performant.com",
    click_hosts: ["event.2performant.com"],
    deep_link_template:
      "https://event.2performant.com/events/click?ad_type=quicklink&aff_code={affCode}&unique={unique}&redirect_to={enc(url)}&st={sub}",
    subid_param: "st",
    unwrap_params: ["redirect_to"],
    regions: ["RO", "BG", "HU"],
    account_params: { affCode: "a8c3e91f2" },
    link: { unique: "?????????" }
  }),
  net({
    id: "profitshare",
    name: "Profitshare",
    website: "https://profitshare.ro",
    click_hosts: ["l.profitshare.ro"],
    regions: ["RO", "BG"]
  }),
  net({ id: "webepartners", name: "WebePartners", website: "https://www.webepartners.pl", regions: ["PL"] }),
  net({ id: "mylead", name: "MyLead", website: "https://mylead.global", regions: ["GLOBAL"] }),
  net({ id: "salesdoubler", name: "SalesDoubler", website: "https://www.salesdoubler.com.ua", regions: ["UA"] }),
  net({ id: "actionpay", name: "Actionpay", website: "https://actionpay.net", regions: ["RU", "BR"] }),
  net({ id: "cityads", name: "CityAds", website: "https://cityads.com", regions: ["RU", "KZ"] }),
  net({ id: "gdeslon", name: "GdeSlon", website: "https://www.gdeslon.ru", regions: ["RU"] }),
  net({ id: "kelkoo", name: "Kelkoo Group", website: "https://www.kelkoogroup.com", regions: ["GLOBAL"] }),
  // ---- Americas ---------------------------------------------------------------
  net({
    id: "linkconnector",
    name: "LinkConnector",
    website: "https://www.linkconnector.com",
    click_hosts: ["www.linkconnector.com"],
    deep_link_template: "https://www.linkconnector.com/ta.php?lc={lc}&atid={sub}&url={enc(url)}",
    subid_param: "atid",
    unwrap_params: ["url"],
    regions: ["US"],
    link: { lc: "############" }
  }),
  net({
    id: "refersion",
    name: "Refersion",
    website: "https://www.refersion.com",
    deep_link_template: "{url}?rfsn={rfsn}&subid={sub}",
    subid_param: "subid",
    regions: ["US", "CA", "GB"],
    link: { rfsn: "#######.******" }
  }),
  net({
    id: "goaffpro",
    name: "GoAffPro",
    website: "https://goaffpro.com",
    deep_link_template: "{url}?ref={ref}&sub_id={sub}",
    subid_param: "sub_id",
    regions: ["GLOBAL"],
    link: { ref: "????????" }
  }),
  net({
    id: "uppromote",
    name: "UpPromote",
    website: "https://uppromote.com",
    deep_link_template: "{url}?sca_ref={scaRef}&sca_source={sub}",
    subid_param: "sca_source",
    regions: ["GLOBAL"],
    link: { scaRef: "#######.**********" }
  }),
  net({
    id: "shopify-collabs",
    name: "Shopify Collabs",
    website: "https://www.shopify.com/collabs",
    regions: ["GLOBAL"]
  }),
  net({
    id: "partnerstack",
    name: "PartnerStack",
    website: "https://partnerstack.com",
    click_hosts: ["*.partnerlinks.io"],
    deep_link_template: "{url}?ps_partner_key={partnerKey}&ps_xid={sub}",
    subid_param: "ps_xid",
    regions: ["GLOBAL"],
    link: { partnerKey: "????????????" },
    cookie: 90
  }),
  net({
    id: "ltk",
    name: "LTK (rewardStyle)",
    website: "https://www.shopltk.com",
    click_hosts: ["liketk.it", "rstyle.me"],
    regions: ["GLOBAL"]
  }),
  net({
    id: "shopstyle-collective",
    name: "ShopStyle Collective (Collective Voice)",
    website: "https://www.shopstylecollective.com",
    click_hosts: ["shopstyle.it", "api.shopstyle.com"],
    deep_link_template: "https://api.shopstyle.com/action/apiVisitRetailer?pid={pid}&url={enc(url)}&uid={sub}",
    subid_param: "uid",
    unwrap_params: ["url"],
    regions: ["US", "GB", "CA", "AU", "DE", "FR"],
    account_params: { pid: "uid2840-38127194-17" }
  }),
  net({
    id: "howl",
    name: "Howl",
    website: "https://www.planethowl.com",
    click_hosts: ["howl.link", "shop-links.co"],
    regions: ["US"]
  }),
  net({ id: "levanta", name: "Levanta", website: "https://levanta.io", regions: ["US"] }),
  net({
    id: "mavely",
    name: "Mavely",
    website: "https://www.joinmavely.com",
    click_hosts: ["mavely.app.link"],
    regions: ["US"]
  }),
  net({
    id: "brandreward",
    name: "Brandreward",
    website: "https://www.brandreward.com",
    click_hosts: ["r.brandreward.com"],
    deep_link_template: "https://r.brandreward.com/?key={key}&url={enc(url)}&subid={sub}",
    subid_param: "subid",
    unwrap_params: ["url"],
    regions: ["GLOBAL"],
    account_params: { key: "5c1e8f20a93b47d6" }
  }),
  net({
    id: "linkbux",
    name: "Linkbux",
    website: "https://www.linkbux.com",
    click_hosts: ["www.linkbux.com"],
    deep_link_template: "https://www.linkbux.com/track/{hash}?url={enc(url)}&uid={sub}",
    subid_param: "uid",
    unwrap_params: ["url"],
    regions: ["GLOBAL"],
    link: { hash: "????????????????" }
  }),
  net({
    id: "maxbounty",
    name: "MaxBounty",
    website: "https://www.maxbounty.com",
    click_hosts: ["afflat3a1.com", "afflat3b1.com", "afflat3c1.com", "afflat3d1.com", "afflat3e1.com"],
    deep_link_template: "https://afflat3e1.com/trk/lnk/{hash}/?o={offerId}&a={affId}&s1={sub}",
    subid_param: "s1",
    regions: ["US", "CA", "GB", "AU"],
    account_params: { affId: "391827" },
    link: { hash: "????????-????-????-????-????????????", offerId: "=mid" },
    mid: "#####"
  }),
  net({ id: "peerfly", name: "PeerFly", website: "https://peerfly.com", regions: ["GLOBAL"] }),
  net({ id: "cpalead", name: "CPAlead", status: "paused", website: "https://www.cpalead.com", regions: ["GLOBAL"] }),
  net({
    id: "clickbooth",
    name: "Clickbooth",
    status: "closed",
    successor_id: "performcb",
    website: "https://www.clickbooth.com",
    regions: ["US"]
  }),
  net({ id: "performcb", name: "Perform[cb]", website: "https://performcb.com", regions: ["US", "CA", "GB"] }),
  net({ id: "affiliati", name: "Affiliati", website: "https://affiliati.com", regions: ["US"] }),
  net({ id: "leadbit", name: "Leadbit", website: "https://leadbit.com", regions: ["GLOBAL"] }),
  net({ id: "adcombo", name: "AdCombo", website: "https://adcombo.com", regions: ["GLOBAL"] }),
  net({ id: "affiliaxe", name: "Affiliaxe", website: "https://www.affiliaxe.com", regions: ["GLOBAL"] }),
  net({ id: "clickdealer", name: "ClickDealer", website: "https://www.clickdealer.com", regions: ["GLOBAL"] }),
  net({ id: "w4", name: "W4", website: "https://w4.com", regions: ["US"] }),
  net({ id: "mobidea", name: "Mobidea", website: "https://www.mobidea.com", regions: ["GLOBAL"] }),
  net({
    id: "neverblue",
    name: "Neverblue",
    status: "closed",
    website: "https://www.neverblue.com",
    regions: ["US", "CA"]
  }),
  net({
    id: "jvzoo",
    name: "JVZoo",
    website: "https://www.jvzoo.com",
    click_hosts: ["www.jvzoo.com"],
    deep_link_template: "https://www.jvzoo.com/c/{affId}/{productId}?tid={sub}",
    subid_param: "tid",
    regions: ["GLOBAL"],
    account_params: { affId: "1928374" },
    link: { productId: "=mid" },
    mid: "######",
    cookie: 90
  }),
  net({ id: "warriorplus", name: "WarriorPlus", website: "https://warriorplus.com", regions: ["GLOBAL"] }),
  net({
    id: "2checkout",
    name: "2Checkout Affiliate Network (Verifone)",
    website: "https://www.2checkout.com",
    regions: ["GLOBAL"]
  }),
  net({
    id: "hotmart",
    name: "Hotmart",
    website: "https://hotmart.com",
    click_hosts: ["go.hotmart.com"],
    deep_link_template: "https://go.hotmart.com/{code}?src={sub}",
    subid_param: "src",
    regions: ["BR", "GLOBAL"],
    link: { code: "*########*" },
    cookie: 180
  }),
  net({ id: "eduzz", name: "Eduzz", website: "https://www.eduzz.com", regions: ["BR"] }),
  net({ id: "monetizze", name: "Monetizze", website: "https://www.monetizze.com.br", regions: ["BR"] }),
  net({
    id: "lomadee",
    name: "Lomadee",
    website: "https://www.lomadee.com",
    click_hosts: ["redir.lomadee.com"],
    deep_link_template: "https://redir.lomadee.com/v2/{hash}?url={enc(url)}&sub={sub}",
    subid_param: "sub",
    unwrap_params: ["url"],
    regions: ["BR"],
    link: { hash: "????????" }
  }),
  net({ id: "afilio", name: "Afilio", website: "https://www.afilio.com.br", regions: ["BR"] }),
  // ---- Asia-Pacific ---------------------------------------------------------------
  net({
    id: "involve-asia",
    name: "Involve Asia",
    website: "https://involve.asia",
    click_hosts: ["invol.co"],
    deep_link_template:
      "https://invol.co/aff_m?offer_id={offerId}&aff_id={affId}&source=deeplink_generator&url={enc(url)}&aff_sub={sub}",
    subid_param: "aff_sub",
    unwrap_params: ["url"],
    regions: ["MY", "SG", "ID", "TH", "PH", "VN"],
    account_params: { affId: "318204" },
    link: { offerId: "=mid" },
    mid: "####"
  }),
  net({
    id: "accesstrade",
    name: "ACCESSTRADE",
    website: "https://www.accesstrade.global",
    click_hosts: ["h.accesstrade.net", "click.accesstrade.vn"],
    deep_link_template: "https://h.accesstrade.net/sp/cc?rk={rk}&url={enc(url)}&add={sub}",
    subid_param: "add",
    unwrap_params: ["url"],
    regions: ["JP", "VN", "ID", "TH", "MY"],
    link: { rk: "0100####00####" }
  }),
  net({ id: "ecomobi", name: "Ecomobi", website: "https://ecomobi.com", regions: ["VN", "TH", "ID", "PH", "MY"] }),
  net({
    id: "shopee-affiliate",
    name: "Shopee Affiliate Program",
    website: "https://affiliate.shopee.sg",
    click_hosts: ["shope.ee", "s.shopee.sg"],
    deep_link_template: "https://s.shopee.sg/an_redir?origin_link={enc(url)}&affiliate_id={affId}&sub_id={sub}",
    subid_param: "sub_id",
    unwrap_params: ["origin_link"],
    regions: ["SG", "MY", "ID", "TH", "PH", "VN", "TW", "BR"],
    account_params: { affId: "11318274" },
    cookie: 7
  }),
  net({
    id: "lazada-affiliate",
    name: "Lazada Affiliate Program",
    website: "https://www.lazada.com",
    click_hosts: ["c.lazada.com.my", "c.lazada.sg"],
    regions: ["MY", "SG", "ID", "TH", "PH", "VN"],
    cookie: 7
  }),
  net({
    id: "valuecommerce",
    name: "ValueCommerce",
    website: "https://www.valuecommerce.co.jp",
    click_hosts: ["ck.jp.ap.valuecommerce.com"],
    deep_link_template:
      "https://ck.jp.ap.valuecommerce.com/servlet/referral?sid={sid}&pid={pid}&vc_url={enc(url)}&vcptn={sub}",
    subid_param: "vcptn",
    unwrap_params: ["vc_url"],
    regions: ["JP"],
    account_params: { sid: "3649201" },
    link: { pid: "88#######" }
  }),
  net({
    id: "a8-net",
    name: "A8.net",
    website: "https://www.a8.net",
    click_hosts: ["px.a8.net"],
    deep_link_template: "https://px.a8.net/svt/ejp?a8mat={a8mat}&a8ejpredirect={enc(url)}&id1={sub}",
    subid_param: "id1",
    unwrap_params: ["a8ejpredirect"],
    regions: ["JP"],
    link: { a8mat: "3T#***+****+****+****" }
  }),
  net({
    id: "rakuten-affiliate-jp",
    name: "Rakuten Affiliate (Rakuten Ichiba)",
    website: "https://affiliate.rakuten.co.jp",
    click_hosts: ["hb.afl.rakuten.co.jp"],
    deep_link_template: "https://hb.afl.rakuten.co.jp/hgc/{hgc}/?pc={enc(url)}&scid={sub}",
    subid_param: "scid",
    unwrap_params: ["pc"],
    regions: ["JP"],
    account_params: { hgc: "1f3a9c2e.7b41d08a.1f3a9c2f.5e6d2b91" },
    cookie: 1
  }),
  net({
    id: "moshimo",
    name: "Moshimo Affiliate",
    website: "https://af.moshimo.com",
    click_hosts: ["af.moshimo.com"],
    deep_link_template:
      "https://af.moshimo.com/af/c/click?a_id={aId}&p_id={pId}&pc_id={pcId}&pl_id={plId}&url={enc(url)}&sub={sub}",
    subid_param: "sub",
    unwrap_params: ["url"],
    regions: ["JP"],
    account_params: { aId: "4281937" },
    link: { pId: "=mid", pcId: "####", plId: "#####" },
    mid: "####"
  }),
  net({ id: "janet", name: "JANet", website: "https://j-a-net.jp", regions: ["JP"] }),
  net({ id: "afb", name: "afb (afi-b)", website: "https://www.afi-b.com", regions: ["JP"] }),
  net({ id: "felmat", name: "felmat", website: "https://www.felmat.net", regions: ["JP"] }),
  net({ id: "linkprice", name: "LinkPrice", website: "https://www.linkprice.com", regions: ["KR"] }),
  net({
    id: "coupang-partners",
    name: "Coupang Partners",
    website: "https://partners.coupang.com",
    click_hosts: ["link.coupang.com"],
    regions: ["KR"],
    cookie: 1
  }),
  net({
    id: "cuelinks",
    name: "Cuelinks",
    website: "https://www.cuelinks.com",
    click_hosts: ["linksredirect.com"],
    deep_link_template: "https://linksredirect.com/?cid={cid}&source=linkkit&url={enc(url)}&subid={sub}",
    subid_param: "subid",
    unwrap_params: ["url"],
    regions: ["IN"],
    account_params: { cid: "148273" }
  }),
  net({
    id: "vcommission",
    name: "vCommission",
    website: "https://www.vcommission.com",
    click_hosts: ["tracking.vcommission.com"],
    deep_link_template:
      "https://tracking.vcommission.com/aff_c?offer_id={offerId}&aff_id={affId}&aff_sub={sub}&url={enc(url)}",
    subid_param: "aff_sub",
    unwrap_params: ["url"],
    regions: ["IN"],
    account_params: { affId: "102938" },
    link: { offerId: "=mid" },
    mid: "####"
  }),
  net({
    id: "earnkaro",
    name: "EarnKaro",
    website: "https://earnkaro.com",
    click_hosts: ["ekaro.in"],
    regions: ["IN"]
  }),
  net({ id: "inrdeals", name: "INRDeals", website: "https://inrdeals.com", regions: ["IN"] }),
  net({
    id: "flipkart-affiliate",
    name: "Flipkart Affiliate",
    website: "https://affiliate.flipkart.com",
    click_hosts: ["dl.flipkart.com"],
    deep_link_template: "{url}?affid={affId}&affExtParam1={sub}",
    subid_param: "affExtParam1",
    regions: ["IN"],
    account_params: { affId: "brightpic" },
    cookie: 1
  }),
  net({
    id: "clixgalore",
    name: "clixGalore",
    status: "paused",
    website: "https://www.clixgalore.com",
    click_hosts: ["www.clixgalore.com"],
    regions: ["AU", "GB", "US"]
  }),
  net({
    id: "linkhaitao",
    name: "LinkHaitao",
    website: "https://www.linkhaitao.com",
    click_hosts: ["www.linkhaitao.com"],
    deep_link_template: "https://www.linkhaitao.com/index.php?mod=lhdeal&track={track}&new={enc(url)}&tag={sub}",
    subid_param: "tag",
    unwrap_params: ["new"],
    regions: ["GLOBAL"],
    account_params: { track: "d81fb2c07a4e" }
  }),
  // ---- Marketplaces, travel and publisher tools -------------------------------------
  net({
    id: "aliexpress-portals",
    name: "AliExpress Portals",
    website: "https://portals.aliexpress.com",
    click_hosts: ["s.click.aliexpress.com"],
    regions: ["GLOBAL"],
    cookie: 3
  }),
  net({
    id: "temu-affiliate",
    name: "Temu Affiliate Program",
    website: "https://www.temu.com/affiliate",
    regions: ["GLOBAL"]
  }),
  net({
    id: "tiktok-shop-affiliate",
    name: "TikTok Shop Affiliate",
    website: "https://affiliate.tiktok.com",
    regions: ["US", "GB", "ID", "MY", "TH", "VN", "PH", "SG"]
  }),
  net({
    id: "booking-affiliate",
    name: "Booking.com Affiliate Partner Programme",
    website: "https://www.booking.com/affiliate-program/v2/index.html",
    deep_link_template: "{url}?aid={aid}&label={sub}",
    subid_param: "label",
    regions: ["GLOBAL"],
    account_params: { aid: "2318476" },
    cookie: 0
  }),
  net({
    id: "expedia-group-affiliate",
    name: "Expedia Group Affiliate Program",
    website: "https://affiliates.expediagroup.com",
    regions: ["GLOBAL"],
    cookie: 7
  }),
  net({
    id: "agoda-partners",
    name: "Agoda Partners",
    website: "https://partners.agoda.com",
    deep_link_template: "{url}?cid={cid}&tag={sub}",
    subid_param: "tag",
    regions: ["GLOBAL"],
    account_params: { cid: "1917264" }
  }),
  net({
    id: "travelpayouts",
    name: "Travelpayouts",
    website: "https://www.travelpayouts.com",
    click_hosts: ["tp.media", "tp.st"],
    deep_link_template:
      "https://tp.media/r?marker={marker}&trs={trs}&p={p}&u={enc(url)}&campaign_id={campaignId}&sub_id={sub}",
    subid_param: "sub_id",
    unwrap_params: ["u"],
    regions: ["GLOBAL"],
    account_params: { marker: "481726", trs: "291837" },
    link: { p: "####", campaignId: "=mid" },
    mid: "###"
  }),
  net({
    id: "getyourguide-partners",
    name: "GetYourGuide Partner Program",
    website: "https://partner.getyourguide.com",
    deep_link_template: "{url}?partner_id={partnerId}&cmp={sub}",
    subid_param: "cmp",
    regions: ["GLOBAL"],
    account_params: { partnerId: "QX7K2PL" }
  }),
  net({
    id: "viator-affiliates",
    name: "Viator Affiliate Program",
    website: "https://partnerresources.viator.com",
    deep_link_template: "{url}?pid={pid}&mcid={mcid}&medium=link&campaign={sub}",
    subid_param: "campaign",
    regions: ["GLOBAL"],
    account_params: { pid: "P00182736", mcid: "42383" }
  }),
  net({
    id: "trip-com-affiliate",
    name: "Trip.com Affiliate Program",
    website: "https://www.trip.com/partners",
    deep_link_template: "{url}?Allianceid={allianceId}&SID={sid}&trip_sub1={sub}",
    subid_param: "trip_sub1",
    regions: ["GLOBAL"],
    account_params: { allianceId: "4829173", sid: "38271649" }
  }),
  net({
    id: "yieldkit",
    name: "Yieldkit",
    website: "https://www.yieldkit.com",
    click_hosts: ["r.srvtrck.com"],
    deep_link_template:
      "https://r.srvtrck.com/v1/redirect?api_key={apiKey}&site_id={siteId}&url={enc(url)}&subid={sub}",
    subid_param: "subid",
    unwrap_params: ["url"],
    regions: ["GLOBAL"],
    account_params: { apiKey: "b7d1e29f04c3a58e6f12", siteId: "4f81c2" }
  }),
  net({
    id: "digidip",
    name: "digidip",
    website: "https://digidip.net",
    click_hosts: ["digidip.net", "*.digidip.net"],
    regions: ["GLOBAL"]
  }),
  net({
    id: "viglink",
    name: "VigLink",
    status: "closed",
    successor_id: "sovrn-commerce",
    website: "https://www.viglink.com",
    click_hosts: ["redirect.viglink.com"],
    regions: ["GLOBAL"]
  })
]
