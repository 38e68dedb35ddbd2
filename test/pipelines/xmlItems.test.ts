import { describe, expect, it } from "vitest"
import { saxXmlItems } from "../../bench/support/saxXmlItems.ts"
import type { StagedRecord } from "../../pipelines/products/stagedColumns.ts"
import { MAX_PENDING_XML, sliceXmlItems, XmlFeedError } from "../../pipelines/products/xmlSlicer.ts"

// The GMC XML reader is a hand-written <item> slicer (its speed against saxes:
// pipelines/products/xmlSlicer.ts and `npm run bench:xml`). These shapes, taken from real
// merchant feeds, prove it reads what a conforming streaming XML parser
// (saxes) reads, whatever the chunk boundaries.

const G = "http://base.google.com/ns/1.0"
const rss = (items: string, channelExtra = "") =>
  `<?xml version="1.0" encoding="UTF-8"?>\r\n<?xml-stylesheet type="text/xsl" href="feed.xsl"?>\n` +
  `<rss version="2.0" xmlns:g="${G}" xmlns:atom="http://www.w3.org/2005/Atom">\n<channel>\n<title>Shop &amp; Co</title>\n` +
  `<atom:link href="https://shop.example/feed.xml" rel="self" type="application/rss+xml"/>\n${channelExtra}${items}</channel>\n</rss>\n`

/**
 * The text as UTF-8 bytes cut into pieces of `size` bytes: items, tags, entities, CDATA
 * markers and the bytes of one character split across chunks.
 */
async function* chunked(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text, "utf8")
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size)
}

type Reader = typeof sliceXmlItems
const read = async (reader: Reader, text: string, size = 1 << 20, storeColumn?: string) => {
  const records: Array<StagedRecord> = []
  for await (const batch of reader(chunked(text, size), 2, storeColumn)) records.push(...batch)
  return records
}

/** Reads with the slicer at several chunk sizes, checks saxes reads the same, returns the records. */
const readBoth = async (text: string, storeColumn?: string) => {
  const whole = await read(sliceXmlItems, text, 1 << 20, storeColumn)
  for (const size of [1, 7, 64]) expect(await read(sliceXmlItems, text, size, storeColumn)).toEqual(whole)
  expect(await read(saxXmlItems, text, 13, storeColumn)).toEqual(whole)
  return whole
}

describe("GMC XML items", () => {
  it("reads CDATA as written: markup inside, whitespace around, CDATA mixed with text", async () => {
    const [item] = await readBoth(
      rss(`<item>
      <g:id>C1</g:id>
      <title><![CDATA[Mug <b>&</b> Saucer]]></title>
      <description>
        <![CDATA[<p>Fine china, 2 > 1</p>]]>
      </description>
      <g:brand>Acme <![CDATA[& Sons]]> Ltd</g:brand>
      <g:price>8.50 GBP</g:price>
    </item>`)
    )
    expect(item).toMatchObject({
      id: "C1",
      title: "Mug <b>&</b> Saucer",
      description: "<p>Fine china, 2 > 1</p>",
      brand: "Acme & Sons Ltd"
    })
  })

  it("decodes the predefined entities and numeric references (decimal and hex), and only once", async () => {
    const [item] = await readBoth(
      rss(`<item><g:id>E1</g:id>
      <title>Caf&#233; &amp; Cr&#xE8;me &lt;1 L&gt; &quot;Deluxe&quot; &apos;24 &#x20AC;9 &#128512;</title>
      <g:link>https://shop.example/p?a=1&amp;b=2</g:link>
      <description>&amp;lt; stays written</description></item>`)
    )
    expect(item).toMatchObject({
      id: "E1",
      title: 'Café & Crème <1 L> "Deluxe" \'24 €9 😀',
      link: "https://shop.example/p?a=1&b=2",
      description: "&lt; stays written"
    })
  })

  it("takes the g: namespace over the plain RSS element, ignores attributes, nested groups and self-closing tags", async () => {
    const [item] = await readBoth(
      rss(`<item xml:lang="en" rdf:about="x">
      <title>RSS title</title><g:title>Merchant title</g:title>
      <link>https://shop.example/rss</link>
      <g:id>N1</g:id>
      <g:price currency="GBP" unit='each'>12.00 GBP</g:price>
      <g:shipping><g:country>GB</g:country><g:price>2.99 GBP</g:price></g:shipping>
      <g:sale_price/>
      <g:sale_price_effective_date />
      <g:availability>in stock</g:availability>
      <g:additional_image_link>https://img.example/1.jpg</g:additional_image_link>
      <g:image_link>https://img.example/main.jpg</g:image_link>
      <g:image_link>https://img.example/second.jpg</g:image_link>
      <g:custom_label_0>Label Store</g:custom_label_0>
    </item>`),
      "custom_label_0"
    )
    expect(item).toMatchObject({
      id: "N1",
      title: "Merchant title",
      link: "https://shop.example/rss",
      price: "12.00 GBP", // the item's price, not the shipping price
      shipping: "GB", // the country the nested shipping group names
      sale_price: null,
      sale_price_effective_date: null,
      availability: "in stock",
      image_link: "https://img.example/main.jpg", // the first of a repeated element
      store: "Label Store"
    })
  })

  it("reads end tags with whitespace before their '>', as XML allows", async () => {
    const text = rss(
      `<item><g:id>W1</g:id ><title>Spaced\t</title\t><g:titles>not the title</g:titles>` +
        `<g:shipping><g:country>DE</g:country\n></g:shipping >` +
        `<g:price>9.99 EUR</g:price\r\n></item\n>\n<item><g:id>W2</g:id></item >`
    ).replace("</channel>\n</rss>", "</channel >\n</rss\n>")
    const items = await readBoth(text)
    expect(items.map((r) => [r.id, r.title, r.shipping, r.price])).toEqual([
      ["W1", "Spaced", "DE", "9.99 EUR"],
      ["W2", null, null, null]
    ])
  })

  it("skips comments between items, inside items and inside values; keeps items whole across any chunking", async () => {
    const items = await readBoth(
      rss(
        `<!-- generated <item>not an item</item> -->\n` +
          `<item><!-- first --><g:id>K1</g:id><title>One <!-- note --> item</title></item>\n` +
          `<item>\r\n<g:id>K2</g:id>\r\n<title>\r\n  Two\r\n</title>\r\n<g:brand></g:brand></item>`,
        `<description>channel text with <![CDATA[<item>]]> inside</description>\n`
      )
    )
    expect(items.map((r) => [r.id, r.title, r.brand])).toEqual(
      [
        ["K1", "One  item"],
        ["K2", "Two", null]
      ].map(([id, title, brand]) => [id, title, brand ?? null])
    )
  })

  it("reads every item of a long feed in batches", async () => {
    const body = Array.from(
      { length: 25 },
      (_, i) => `<item><g:id>B${i}</g:id><g:price>${i}.00 USD</g:price></item>`
    ).join("\n")
    const items = await readBoth(rss(body))
    expect(items.map((r) => r.id)).toEqual(Array.from({ length: 25 }, (_, i) => `B${i}`))
  })

  it("fails on a document that is not RSS, stops inside an item, or never closes the channel", async () => {
    const full = rss(`<item><g:id>T1</g:id></item><item><g:id>T2</g:id></item>`)
    await expect(read(sliceXmlItems, full.slice(0, full.indexOf("T2") + 8))).rejects.toThrow(
      /truncated XML: <item> number 2 is not closed/
    )
    await expect(read(sliceXmlItems, full.slice(0, full.indexOf("</channel>")))).rejects.toThrow(
      /document ends before <\/channel><\/rss>/
    )
    await expect(read(sliceXmlItems, "<html><body>" + "x".repeat(70_000))).rejects.toThrow(XmlFeedError)
    await expect(read(sliceXmlItems, rss(`<item><g:id>M1</g:id><title>broken</item>`))).rejects.toThrow(
      /<title> is not closed/
    )
  })

  it("fails an item or comment whose closing tag is missing once it passes the bound, without reading on", async () => {
    // 40 MB after the opening: the bound is 16 MB, so the reader stops at about the 17th 1 MB chunk
    const pulled = { chunks: 0 }
    async function* unclosed(opening: string): AsyncGenerator<Uint8Array> {
      yield Buffer.from(rss("").slice(0, rss("").indexOf("</channel>")) + opening)
      for (let i = 0; i < 40; i++, pulled.chunks++) yield Buffer.alloc(1 << 20, "x")
      yield Buffer.from("</channel></rss>")
    }
    const readAll = async (opening: string) => {
      pulled.chunks = 0
      for await (const batch of sliceXmlItems(unclosed(opening), 2)) void batch
    }
    // a mistyped closing tag: the item never closes
    await expect(readAll("<item><g:id>U1</g:id><description>")).rejects.toThrow(
      /<item> number 1 is larger than 16 MB, or not closed/
    )
    expect(pulled.chunks).toBeLessThanOrEqual(MAX_PENDING_XML / (1 << 20) + 1)
    await expect(readAll("<!-- a comment left open")).rejects.toThrow(
      /a comment or CDATA section is larger than 16 MB, or not closed/
    )
    expect(pulled.chunks).toBeLessThanOrEqual(MAX_PENDING_XML / (1 << 20) + 1)
  })
})
