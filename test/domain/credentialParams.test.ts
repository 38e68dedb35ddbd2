import { describe, expect, it } from "vitest"
import { dropCredentialParams } from "../../domain/links/credentialParams.ts"

describe("dropCredentialParams", () => {
  it.each([
    ["https://shop.example/p?id=1&colour=red", "https://shop.example/p?id=1&colour=red"],
    ["https://shop.example/p", "https://shop.example/p"],
    ["https://shop.example/reset?reset_token=abc&x=1", "https://shop.example/reset?x=1"],
    ["https://shop.example/p?API_KEY=1&SessionId=2&passwd=3&pwd=4&Secret=5", "https://shop.example/p"],
    ["https://shop.example/p?a=1&user%5Femail=x&b=2", "https://shop.example/p?a=1&b=2"],
    ["https://shop.example/p?to=bob%40mail.example&q=lamp", "https://shop.example/p?q=lamp"],
    ["https://shop.example/p?q=a+b%20c&token", "https://shop.example/p?q=a+b%20c"],
    ["https://shop.example/cb#access_token=t&state=s", "https://shop.example/cb#state=s"],
    ["https://shop.example/p#reviews", "https://shop.example/p#reviews"],
    ["https://user:pass@shop.example/p?x=1", "https://shop.example/p?x=1"],
    ["https://shop.example/@brand/p", "https://shop.example/@brand/p"]
  ])("%s -> %s", (url, expected) => {
    expect(dropCredentialParams(url)).toBe(expected)
  })
})
