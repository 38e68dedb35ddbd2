// Amazon and eBay run one programme per marketplace: a click on amazon.de
// earns nothing under the amazon.com tag, so each country is its own
// programme with its own tag (Amazon) or rotation id (eBay).
// [domain, country, marketplace id, tag]. Marketplace ids are Amazon's public ones.
export const amazonMarketplaces: ReadonlyArray<readonly [string, string, string, string]> = [
  ["amazon.com", "US", "ATVPDKIKX0DER", "brightpickus-20"],
  ["amazon.co.uk", "GB", "A1F83G8C2ARO7P", "brightpickuk-21"],
  ["amazon.de", "DE", "A1PA6795UKMFR9", "brightpickde-21"],
  ["amazon.fr", "FR", "A13V1IB3VIYZZH", "brightpickfr-21"],
  ["amazon.it", "IT", "APJ6JRA9NG5V4", "brightpickit-21"],
  ["amazon.es", "ES", "A1RKKUPIHCS9HS", "brightpickes-21"],
  ["amazon.nl", "NL", "A1805IZSGTT6HS", "brightpicknl-21"],
  ["amazon.se", "SE", "A2NODRKZP88ZB9", "brightpickse-21"],
  ["amazon.pl", "PL", "A1C3SOZRARQ6R3", "brightpickpl-21"],
  ["amazon.com.be", "BE", "AMEN7PMS3EDWL", "brightpickbe-21"],
  ["amazon.ca", "CA", "A2EUQ1WTGCTBG2", "brightpickca-20"],
  ["amazon.com.mx", "MX", "A1AM78C64UM0Y8", "brightpickmx-20"],
  ["amazon.com.br", "BR", "A2Q3Y263D00KWC", "brightpickbr-20"],
  ["amazon.co.jp", "JP", "A1VC38T7YXB528", "brightpickjp-22"],
  ["amazon.com.au", "AU", "A39IBJ37TRP1C6", "brightpickau-22"],
  ["amazon.sg", "SG", "A19VAU5U5O7RUS", "brightpicksg-22"],
  ["amazon.in", "IN", "A21TJRUUN4KGV", "brightpickin-21"],
  ["amazon.ae", "AE", "A2VIGQ35RCS4UG", "brightpickae-21"]
]

// [domain, country, rotation id (mkrid)].
export const ebayMarketplaces: ReadonlyArray<readonly [string, string, string]> = [
  ["ebay.com", "US", "711-53200-19255-0"],
  ["ebay.co.uk", "GB", "710-53481-19255-0"],
  ["ebay.de", "DE", "707-53477-19255-0"],
  ["ebay.fr", "FR", "709-53476-19255-0"],
  ["ebay.it", "IT", "724-53478-19255-0"],
  ["ebay.es", "ES", "1185-53479-19255-0"],
  ["ebay.ca", "CA", "706-53473-19255-0"],
  ["ebay.com.au", "AU", "705-53470-19255-0"]
]
