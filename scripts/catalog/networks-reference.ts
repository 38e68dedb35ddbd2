import { net } from "./network-types.ts"

// The 21 networks documented in the shared affiliate-networks reference.
// Templates are copied verbatim, with two deliberate exceptions:
// - Amazon: the reference's /dp/{ASIN} form needs a per-product ASIN that no
//   programme can carry, so we use its other documented form (the page URL
//   plus tag=); ascsubtag is restricted, hence confidence U.
// - Sovrn: the reference elides the path ("sovrn.co/..."); we use the
//   documented redirect.viglink.com endpoint with the same parameters.
// Where the reference gives two confidences (H/M, H/U) we keep the lower.
// A template starting with "{url}?" appends parameters to the destination:
// use "&" instead of "?" when the destination already has a query.
export const referenceNetworks = [
  net({
    id: "awin", name: "Awin", website: "https://www.awin.com", confidence: "H",
    click_hosts: ["www.awin1.com", "awin1.com"],
    deep_link_template: "https://www.awin1.com/cread.php?awinmid={mid}&awinaffid={pubId}&clickref={sub}&ued={enc(url)}",
    subid_param: "clickref", unwrap_params: ["ued"],
    regions: ["GLOBAL"], account_params: { pubId: "1184267" }, link: { mid: "=mid" }, mid: "####", cookie: 30
  }),
  net({
    id: "cj", name: "CJ Affiliate", website: "https://www.cj.com", confidence: "M",
    click_hosts: ["www.anrdoezrs.net", "anrdoezrs.net", "www.dpbolvw.net", "dpbolvw.net", "www.jdoqocy.com", "jdoqocy.com", "www.kqzyfj.com", "kqzyfj.com", "www.tkqlhce.com", "tkqlhce.com"],
    deep_link_template: "https://www.anrdoezrs.net/click-{PID}-{AID}?url={enc(url)}&sid={sub}",
    subid_param: "sid", unwrap_params: ["url"],
    regions: ["GLOBAL"], account_params: { PID: "9207431" }, link: { AID: "1########" }, mid: "#######", cookie: 7
  }),
  net({
    id: "rakuten", name: "Rakuten Advertising", website: "https://rakutenadvertising.com", confidence: "H",
    click_hosts: ["click.linksynergy.com"],
    deep_link_template: "https://click.linksynergy.com/deeplink?id={pubId}&mid={mid}&murl={enc(url)}&u1={sub}",
    subid_param: "u1", unwrap_params: ["murl"],
    regions: ["US", "GB", "CA", "AU", "FR", "DE", "JP", "BR"], account_params: { pubId: "qT9xZ2vLmWk" }, link: { mid: "=mid" }, mid: "#####", cookie: 15
  }),
  net({
    id: "impact", name: "Impact", website: "https://impact.com", confidence: "M",
    click_hosts: ["*.sjv.io", "*.pxf.io", "*.7eer.net", "*.evyy.net", "*.ojrq.net", "*.7tiv.net", "goto.walmart.com", "goto.target.com"],
    deep_link_template: "https://{host}/c/{partnerId}/{adId}/{programId}?subId1={sub}&u={enc(url)}",
    subid_param: "subId1", unwrap_params: ["u"],
    regions: ["GLOBAL"], account_params: { partnerId: "2839154" }, link: { host: "=impact-host", adId: "######", programId: "=mid" }, mid: "#####", cookie: 30
  }),
  net({
    id: "shareasale", name: "ShareASale", status: "closed", successor_id: "awin", website: "https://www.shareasale.com", confidence: "H",
    click_hosts: ["shareasale.com", "www.shareasale.com"],
    deep_link_template: "https://shareasale.com/r.cfm?b={banner}&u={affId}&m={mid}&urllink={url}&afftrack={sub}",
    subid_param: "afftrack", unwrap_params: ["urllink"],
    regions: ["US"], account_params: { affId: "3310482" }, link: { banner: "######", mid: "=mid" }, mid: "#####", cookie: 30
  }),
  net({
    id: "amazon-associates", name: "Amazon Associates", website: "https://affiliate-program.amazon.com", confidence: "U",
    click_hosts: ["amzn.to", "amzn.eu", "amzn.asia"],
    deep_link_template: "{url}?tag={tag}&ascsubtag={sub}",
    subid_param: "ascsubtag", unwrap_params: [],
    regions: ["GLOBAL"], account_params: {}, link: { tag: "=amazon-tag" }, mid: "A*************", cookie: 1
  }),
  net({
    id: "ebay-partner-network", name: "eBay Partner Network", website: "https://partnernetwork.ebay.com", confidence: "H",
    click_hosts: ["rover.ebay.com"],
    deep_link_template: "{url}?mkevt=1&mkcid=1&mkrid={rotationId}&campid={campId}&toolid=10001&customid={sub}",
    subid_param: "customid", unwrap_params: [],
    regions: ["GLOBAL"], account_params: { campId: "5338915472" }, link: { rotationId: "=ebay-rotation" }, mid: "EBAY-##", cookie: 1
  }),
  net({
    id: "partnerize", name: "Partnerize", website: "https://partnerize.com", confidence: "H",
    click_hosts: ["prf.hn"],
    deep_link_template: "https://prf.hn/click/camref:{camref}/pubref:{sub}/destination:{url}",
    subid_param: "pubref", unwrap_params: ["destination"],
    regions: ["GLOBAL"], account_params: {}, link: { camref: "1#0#l***" }, mid: "1011l####", cookie: 30
  }),
  net({
    id: "tradedoubler", name: "TradeDoubler", website: "https://www.tradedoubler.com", confidence: "M",
    click_hosts: ["clk.tradedoubler.com"],
    deep_link_template: "https://clk.tradedoubler.com/click?p={programId}&a={siteId}&g={adId}&epi={sub}&url={enc(url)}",
    subid_param: "epi", unwrap_params: ["url"],
    regions: ["GB", "DE", "FR", "IT", "ES", "NL", "SE", "DK", "NO", "FI", "PL", "AT", "CH", "BE", "IE"],
    account_params: { siteId: "3187254" }, link: { programId: "=mid", adId: "2#######" }, mid: "3#####", cookie: 30
  }),
  net({
    id: "webgains", name: "Webgains", website: "https://www.webgains.com", confidence: "M",
    click_hosts: ["track.webgains.com"],
    deep_link_template: "https://track.webgains.com/click.html?wgcampaignid={siteId}&wgprogramid={progId}&clickref={sub}&wgtarget={enc(url)}",
    subid_param: "clickref", unwrap_params: ["wgtarget"],
    regions: ["GB", "IE", "DE", "FR", "ES", "IT", "NL", "US"], account_params: { siteId: "1482631" }, link: { progId: "=mid" }, mid: "#####", cookie: 30
  }),
  net({
    id: "admitad", name: "Admitad", website: "https://www.admitad.com", confidence: "M",
    click_hosts: ["ad.admitad.com", "alitems.com", "lenkmio.com"],
    deep_link_template: "https://ad.admitad.com/g/{hash}/?ulp={enc(url)}&subid={sub}",
    subid_param: "subid", unwrap_params: ["ulp"],
    regions: ["GLOBAL"], account_params: {}, link: { hash: "??????????????????????????????" }, mid: "#####", cookie: 30
  }),
  net({
    id: "flexoffers", name: "FlexOffers", website: "https://www.flexoffers.com", confidence: "M",
    click_hosts: ["track.flexlinkspro.com", "track.flexlinks.com"],
    deep_link_template: "https://track.flexlinkspro.com/g.ashx?foid={foid}&trid={trid}&foc={foc}&fot=9999&fos={fos}&url={enc(url)}&fobs={sub}",
    subid_param: "fobs", unwrap_params: ["url"],
    regions: ["US", "CA", "GB"], account_params: { foid: "1297388.1004519", foc: "16", fos: "6" }, link: { trid: "1#####.1#####" }, mid: "1#####", cookie: 30
  }),
  net({
    id: "pepperjam", name: "Pepperjam (Ascend)", website: "https://www.pepperjam.com", confidence: "M",
    click_hosts: ["www.pjtra.com", "pjtra.com", "www.pjatr.com", "pjatr.com", "www.gopjn.com", "gopjn.com", "www.pntra.com", "pntra.com", "www.pntrac.com", "pntrac.com", "www.pntrs.com", "pntrs.com"],
    deep_link_template: "https://www.pjtra.com/t/{hash}?url={enc(url)}&sid={sub}",
    subid_param: "sid", unwrap_params: ["url"],
    regions: ["US", "CA", "GB"], account_params: {}, link: { hash: "*************************" }, mid: "####", cookie: 30
  }),
  net({
    id: "clickbank", name: "ClickBank", website: "https://www.clickbank.com", confidence: "M",
    click_hosts: ["hop.clickbank.net", "*.hop.clickbank.net"],
    deep_link_template: "https://hop.clickbank.net/?affiliate={nick}&vendor={vendor}&tid={sub}",
    subid_param: "tid", unwrap_params: [],
    regions: ["GLOBAL"], account_params: { nick: "brightpick" }, link: { vendor: "=mid" }, mid: "????????", cookie: 60
  }),
  net({
    id: "daisycon", name: "Daisycon", website: "https://www.daisycon.com", confidence: "M",
    click_hosts: ["ds1.nl", "jf79.net", "rkn3.net", "lt45.net"],
    deep_link_template: "https://ds1.nl/c/?si={progId}&li={linkId}&wi={mediaId}&ws={sub}&dl={enc(url)}",
    subid_param: "ws", unwrap_params: ["dl"],
    regions: ["NL", "BE", "DE", "FR"], account_params: { mediaId: "392817" }, link: { progId: "=mid", linkId: "1######" }, mid: "####", cookie: 30
  }),
  net({
    id: "tradetracker", name: "TradeTracker", website: "https://tradetracker.com", confidence: "M",
    click_hosts: ["tc.tradetracker.net"],
    deep_link_template: "https://tc.tradetracker.net/?c={campaignId}&m={materialId}&a={siteId}&r={sub}&u={enc(url)}",
    subid_param: "r", unwrap_params: ["u"],
    regions: ["NL", "BE", "DE", "FR", "GB", "SE", "PL", "ES", "IT"], account_params: { siteId: "428519" }, link: { campaignId: "=mid", materialId: "#####" }, mid: "#####", cookie: 30
  }),
  net({
    id: "adtraction", name: "Adtraction", website: "https://adtraction.com", confidence: "M",
    click_hosts: ["track.adtraction.com"],
    deep_link_template: "https://track.adtraction.com/t/t?a={progId}&as={channelId}&t=2&tk=1&epi={sub}&url={enc(url)}",
    subid_param: "epi", unwrap_params: ["url"],
    regions: ["SE", "NO", "DK", "FI", "DE", "NL", "GB", "PL", "CH"], account_params: { channelId: "1593028471" }, link: { progId: "=mid" }, mid: "1########", cookie: 30
  }),
  net({
    id: "commission-factory", name: "Commission Factory", website: "https://www.commissionfactory.com", confidence: "M",
    click_hosts: ["t.cfjump.com"],
    deep_link_template: "https://t.cfjump.com/{pubId}/t/{progId}?Url={enc(url)}&UniqueId={sub}",
    subid_param: "UniqueId", unwrap_params: ["Url"],
    regions: ["AU", "NZ"], account_params: { pubId: "48213" }, link: { progId: "=mid" }, mid: "#####", cookie: 30
  }),
  net({
    id: "avantlink", name: "AvantLink", website: "https://www.avantlink.com", confidence: "H",
    click_hosts: ["www.avantlink.com", "classic.avantlink.com"],
    deep_link_template: "https://www.avantlink.com/click.php?tt=cl&mi={merchantId}&pw={websiteId}&url={enc(url)}&ctc={sub}",
    subid_param: "ctc", unwrap_params: ["url"],
    regions: ["US", "CA", "AU"], account_params: { websiteId: "318275" }, link: { merchantId: "=mid" }, mid: "#####", cookie: 30
  }),
  net({
    id: "skimlinks", name: "Skimlinks", website: "https://skimlinks.com", confidence: "H",
    click_hosts: ["go.skimresources.com", "go.redirectingat.com"],
    deep_link_template: "https://go.skimresources.com/?id={pubId}&xs=1&url={enc(url)}&xcust={sub}",
    subid_param: "xcust", unwrap_params: ["url"],
    regions: ["GLOBAL"], account_params: { pubId: "192837X1584263" }, link: {}, mid: "#####", cookie: 30
  }),
  net({
    id: "sovrn-commerce", name: "Sovrn Commerce", website: "https://www.sovrn.com/commerce", confidence: "H",
    click_hosts: ["sovrn.co", "redirect.viglink.com"],
    deep_link_template: "https://redirect.viglink.com?key={key}&u={enc(url)}&cuid={sub}",
    subid_param: "cuid", unwrap_params: ["u"],
    regions: ["GLOBAL"], account_params: { key: "8f2c41d09b7e53a6c1d4e2f7a9b08c35" }, link: {}, mid: "#####", cookie: 30
  })
]
