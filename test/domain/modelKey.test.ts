import { describe, expect, it } from "vitest"
import { groupKey, modelKey } from "../../domain/catalog/modelKey.ts"

// The search group of a colour/size variant is its model: the title without
// the row's own colour and size. Pure function, plain values.
describe("modelKey / groupKey: one search result per product model", () => {
  it("variants across stores collapse, whatever form the colour takes in the title", () => {
    const model = "anker soundcore liberty 4 nc wireless earbuds"
    const variants: Array<[string, string]> = [
      ["Anker Soundcore Liberty 4 NC Wireless Earbuds, White", "White"], // Darty
      ["Anker Soundcore Liberty 4 NC Wireless Earbuds - Navy", "Navy"], // MediaMarkt DE
      ["Anker Soundcore Liberty 4 NC Wireless Earbuds (Black)", "Black"], // Fnac
      ["Anker Soundcore Liberty 4 NC Wireless Earbuds, coral", "Coral"],
      ["ANKER Soundcore Liberty 4 NC Wireless Earbuds – Silver", "silver"]
    ]
    for (const [title, color] of variants) expect(modelKey(title, { color }), title).toBe(model)
    // different GTINs per colour do not matter once a colour is known
    const keys = new Set(
      variants.map(([title, color], i) => groupKey(`0194644${String(100000 + i)}`, title, { color }))
    )
    expect([...keys]).toEqual([`model:${model}`])
  })

  it("two different models stay apart", () => {
    const nc = modelKey("Anker Soundcore Liberty 4 NC Wireless Earbuds, Black", { color: "Black" })
    const plain = modelKey("Anker Soundcore Liberty 4 Wireless Earbuds, Black", { color: "Black" })
    expect(nc).not.toBe(plain)
    expect(plain).toBe("anker soundcore liberty 4 wireless earbuds")
  })

  it("keeps a colour word that is part of the model name but not the row's colour", () => {
    expect(modelKey("Black+Decker 20V MAX Cordless Drill, Orange", { color: "Orange" })).toBe(
      "black decker 20v max cordless drill"
    )
    // ...and when the row's colour is that word, only the colour (the last one) goes
    expect(modelKey("Black+Decker 20V MAX Cordless Drill, Black", { color: "Black" })).toBe(
      "black decker 20v max cordless drill"
    )
    // a title that does not name its colour keeps its brand: the same key as the store that writes ", Black"
    expect(modelKey("Black+Decker 20V MAX Cordless Drill", { color: "Black" })).toBe(
      "black decker 20v max cordless drill"
    )
  })

  it("removes a colour written inside the title, multi-word colours and colour pairs", () => {
    expect(modelKey("Nike Air Max 90 Black Running Shoes", { color: "Black" })).toBe("nike air max 90 running shoes")
    expect(modelKey("Acer Swift Go 14 Laptop, 16GB RAM, Space Gray", { color: "Space Gray" })).toBe(
      "acer swift go 14 laptop 16gb ram"
    )
    expect(modelKey("Converse Chuck 70 Hi, Black/White", { color: "Black/White" })).toBe("converse chuck 70 hi")
  })

  it("removes sizes: 'Size 10', a trailing size, size and colour in either order", () => {
    expect(modelKey("Trail Running Shoes, Size 10", { size: "10" })).toBe("trail running shoes")
    expect(modelKey("Trail Running Shoes, Size: 10.5", { size: "10.5" })).toBe("trail running shoes")
    expect(modelKey("Levi's 501 Original Jeans, S", { size: "S" })).toBe("levis 501 original jeans")
    expect(modelKey("Trail Running Shoes, Size 10, Black", { color: "Black", size: "10" })).toBe("trail running shoes")
    expect(modelKey("Trail Running Shoes, Black, UK 9", { color: "Black", size: "UK 9" })).toBe("trail running shoes")
    expect(modelKey("Trail Running Shoes Size 10 in Black", { color: "Black", size: "10" })).toBe(
      "trail running shoes in"
    )
    // a bare number inside the title is the model's, not the size
    expect(modelKey("Pegasus 10 Trail Running Shoes", { size: "10" })).toBe("pegasus 10 trail running shoes")
    // a possessive "s" is not size S
    expect(modelKey("Levi's Men's 501 Jeans", { size: "S" })).toBe("levis mens 501 jeans")
  })

  it("a size not written in the title leaves it whole; the key is the same for every size", () => {
    const a = groupKey("00012345678905", "Nike Pegasus 41 Men's Running Shoes, Black", { color: "Black", size: "10" })
    const b = groupKey("00012345678912", "Nike Pegasus 41 Men's Running Shoes, Black", { color: "Black", size: "11.5" })
    const c = groupKey(null, "Nike Pegasus 41 Men's Running Shoes, White", { color: "White", size: "9" })
    expect(new Set([a, b, c]).size).toBe(1)
    // men's and women's are different models
    expect(groupKey(null, "Nike Pegasus 41 Women's Running Shoes, Black", { color: "Black", size: "8" })).not.toBe(a)
  })

  it("a refurbished or used offer is its model (as under the GTIN it shares with the new one)", () => {
    const model = "anker soundcore liberty 4 nc wireless earbuds"
    expect(
      modelKey("Anker Soundcore Liberty 4 NC Wireless Earbuds, Black (Refurbished)", {
        color: "Black",
        condition: "refurbished"
      })
    ).toBe(model)
    expect(
      modelKey("Anker Soundcore Liberty 4 NC Wireless Earbuds, Coral (Used - Very Good)", {
        color: "Coral",
        condition: "used"
      })
    ).toBe(model)
    expect(
      modelKey("Anker Soundcore Liberty 4 NC Renewed Wireless Earbuds - Navy", {
        color: "Navy",
        condition: "Refurbished"
      })
    ).toBe(model)
    expect(
      modelKey("Refurbished Anker Soundcore Liberty 4 NC Wireless Earbuds, White", {
        color: "White",
        condition: "refurbished"
      })
    ).toBe(model)
    // a condition word in the name of a new product stays
    expect(modelKey("Used Car Air Freshener, Blue", { color: "Blue", condition: "new" })).toBe("used car air freshener")
  })

  it("rows without a colour or size keep the GTIN, else the title", () => {
    expect(groupKey("0012345678905", "Vistara 43 inch 4K Smart TV")).toBe("gtin:12345678905")
    expect(groupKey(null, 'Vistara 43" 4K Smart-TV')).toBe("title:vistara 43 4k smart tv")
    expect(groupKey("0012345678905", "Vistara 43 inch 4K Smart TV", { color: null, size: " " })).toBe(
      "gtin:12345678905"
    )
  })

  it("a title that is only its colour keeps its words", () => {
    expect(modelKey("Black", { color: "Black" })).toBe("black")
    expect(modelKey("", { color: "Black" })).toBe("")
  })
  it("one spelling per colour: Grey/Gray and Navy Blue/Navy are one variant group (colourSpellings.ts)", () => {
    const model = "acme studio wireless headphones"
    const offers: Array<[string, string]> = [
      ["Acme Studio Wireless Headphones, Grey", "Grey"],
      ["Acme Studio Wireless Headphones - Gray", "Gray"],
      ["Acme Studio Wireless Headphones (Gray)", "Grey"], // a store whose colour column and title disagree in spelling
      ["Acme Studio Wireless Headphones, Navy Blue", "Navy"],
      ["Acme Studio Wireless Headphones - Navy", "Navy Blue"],
      ["Acme Studio Wireless Headphones, Fuschia", "Fuchsia"]
    ]
    for (const [title, color] of offers) expect(modelKey(title, { color }), title).toBe(model)
    expect(new Set(offers.map(([title, color]) => groupKey(null, title, { color }))).size).toBe(1)
    // a colour left in the model name is spelled one way too, so stores writing either spelling share the key
    expect(modelKey("Acer Swift Go 14, Space Gray", { size: "14" })).toBe(
      modelKey("Acer Swift Go 14, Space Grey", { size: "14" })
    )
    expect(groupKey(null, "Grey Goose Mug")).toBe(groupKey(null, "Gray Goose Mug"))
    // near shades stay different models' colours: charcoal is not grey, sky blue is not navy
    expect(modelKey("Acme Studio Wireless Headphones, Charcoal", { color: "Grey" })).toBe(
      "acme studio wireless headphones charcoal"
    )
    expect(modelKey("Acme Studio Wireless Headphones, Sky Blue", { color: "Navy" })).toBe(
      "acme studio wireless headphones sky blue"
    )
  })
})
