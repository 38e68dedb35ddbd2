import { describe, expect, it } from "vitest"
import { ageGroupOf, genderOf } from "../../domain/catalog/productAudience.ts"
import { parseIntent } from "../../domain/intent/parseIntent.ts"

// Who a gift is for, read and used: recipients and ages become filters on the
// products' gender and age group, "women's X" is the product's gender, and a
// person without a product browses their gift categories.

const vocabulary = {
  categories: ["Headphones", "Skincare", "Jackets", "Toys & Games", "Board Games", "Baby", "Lawn & Outdoor Power"],
  brands: ["LEGO"]
}

describe("recipients, ages and gender-named products", () => {
  it("reads dad, him, my husband and my son as men's or unisex products", () => {
    for (const q of ["gift for dad", "headphones for him", "jacket for my husband", "present for my son"]) {
      expect(parseIntent(q, vocabulary).filters, q).toContain('gender != "female"')
    }
    for (const q of ["gift for mom", "headphones for her", "jacket for my wife", "gift for my daughter"]) {
      expect(parseIntent(q, vocabulary).filters, q).toContain('gender != "male"')
    }
  })

  it('reads "women\'s X" and "X women" as the product\'s gender, never as a gift for her', () => {
    for (const q of ["winter jacket women", "women's jacket", "womens jacket"]) {
      const intent = parseIntent(q, vocabulary)
      expect(intent.audience, q).toMatchObject({ gender: "female", genderOfProduct: true })
      expect(intent.audience.recipient, q).toBeUndefined()
      expect(intent.interpretation, q).not.toContain("a gift for her")
      expect(intent.interpretation, q).toContain("only women's or unisex products")
      expect(intent.broadQuery, q).toMatch(/jacket/)
    }
    expect(parseIntent("mens running shoes", vocabulary).filters).toContain('gender != "female"')
    // "women" holds "men": never read as men's
    expect(parseIntent("women's jacket", vocabulary).filters).not.toContain('gender != "female"')
  })

  it("maps ages to age groups: toddler, 10 year old, teen", () => {
    expect(parseIntent("toys for toddler", vocabulary).filters).toContain('age_group NOT IN ["kids", "adult"]')
    expect(parseIntent("lego for a 10 year old", vocabulary).filters).toContain(
      'age_group NOT IN ["newborn", "infant", "adult"]'
    )
    expect(parseIntent("headphones for a teen", vocabulary).filters).toContain(
      'age_group NOT IN ["newborn", "infant", "toddler", "kids"]'
    )
    // a grown-up's product for a grown-up is not filtered by age: a baby carrier for mom is hers to use
    expect(parseIntent("baby carrier for mom", vocabulary).filters.some((f) => f.startsWith("age_group"))).toBe(false)
  })

  it("browses the person's gift categories when the phrase names no product", () => {
    const dad = parseIntent("gift for dad", vocabulary)
    expect(dad.broadQuery).toBe("")
    expect(dad.giftCategories).toEqual(["Headphones", "Jackets", "Board Games"])
    expect(dad.filters).toContain('categories IN ["Headphones", "Jackets", "Board Games"]')
    expect(dad.interpretation).toContain("browsing the best-rated deals in gift categories")
    expect(dad.interpretation).not.toContain("Lawn")
    const child = parseIntent("birthday present for 10 year old", vocabulary)
    expect(child.filters).toContain('(categories IN ["Toys & Games", "Board Games"] OR age_group = "kids")')
    expect(parseIntent("gift for mom", vocabulary).giftCategories).toEqual(["Skincare", "Jackets", "Headphones"])
    // with a product, no browsing
    expect(parseIntent("headphones for dad", vocabulary).giftCategories).toEqual([])
  })
})

describe("who a product is for", () => {
  it("takes the feed's value, else what the title names", () => {
    expect(genderOf("female", "Nike Pegasus 41 Men's Road Running Shoes")).toBe("female")
    expect(genderOf(null, "Nike Pegasus 41 Women's Road Running Shoes")).toBe("female")
    expect(genderOf(null, "Nike Pegasus 41 Men's Road Running Shoes")).toBe("male")
    expect(genderOf(null, "Crocs Classic Unisex Clog")).toBe("unisex")
    expect(genderOf(null, "Sony WH-1000XM5 Headphones")).toBeNull()
    expect(genderOf("nonsense", "Sony WH-1000XM5 Headphones")).toBeNull()
    expect(ageGroupOf("adult", "LEGO 10281 Icons Bonsai Tree", ["Toys & Games"])).toBe("adult")
    expect(ageGroupOf(null, "woom 3 Lightweight Kids' Bike", ["Bikes"])).toBe("kids")
    expect(ageGroupOf(null, "Chicco KeyFit 35 Car Seat", ["Baby"])).toBe("infant")
    expect(ageGroupOf(null, "Sony WH-1000XM5 Headphones", ["Headphones"])).toBeNull()
  })
})
