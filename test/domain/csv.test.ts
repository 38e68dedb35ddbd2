import { describe, expect, it } from "vitest"
import { csvDocument, csvField } from "../../domain/csv/csv.ts"

describe("CSV fields (RFC 4180, formula injection guarded)", () => {
  it.each([
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ["=1+1", "'=1+1"],
    ["+cmd", "'+cmd"],
    ["-cmd", "'-cmd"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tx", "'\tx"],
    ['=HYPERLINK("x")', '"\'=HYPERLINK(""x"")"'],
    ["-12.5000", "-12.5000"],
    [42, "42"],
    [null, ""]
  ])("%j -> %s", (value, expected) => {
    expect(csvField(value)).toBe(expected)
  })

  it("ends every line with CRLF", () => {
    expect(csvDocument(["a", "b"], [[1, "x"]])).toBe("a,b\r\n1,x\r\n")
  })
})
