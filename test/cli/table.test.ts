import { describe, expect, it } from "vitest"
import { pageFooter } from "../../cli/partner/responses.ts"
import { bar, barChart } from "../../cli/partner/BarChart.ts"
import { cell, formatFields, formatTable } from "../../cli/partner/Table.ts"

describe("partner CLI output helpers", () => {
  it("aligns columns, right-aligns numbers and cuts long cells with an ellipsis", () => {
    const table = formatTable(
      [{ header: "NAME" }, { header: "CLICKS", align: "right" }, { header: "URL", maxWidth: 10 }],
      [
        ["alpha", "7", "https://a.example/very/long"],
        ["b", "1,024", "short"]
      ]
    )
    expect(table.split("\n")).toEqual([
      "NAME   CLICKS  URL",
      "-----  ------  ----------",
      "alpha       7  https://a…",
      "b       1,024  short"
    ])
    expect(formatTable([{ header: "X" }], [])).toBe("(none)")
  })

  it("aligns label/value blocks and renders any JSON value as a cell", () => {
    expect(
      formatFields([
        ["Tag", "acme"],
        ["Tracking URL", "http://x/t/1"]
      ])
    ).toBe("Tag:          acme\nTracking URL: http://x/t/1")
    expect([cell(null), cell(1234567), cell(0.5), cell("s"), cell(true), cell(["a"])]).toEqual([
      "",
      "1,234,567",
      "0.50",
      "s",
      "yes",
      '["a"]'
    ])
  })

  it("describes the page position and the next page", () => {
    const page = (count: number, offset: number, total: number, next: number | null) => ({
      data: Array.from({ length: count }, () => ({})),
      pagination: { limit: 20, offset, total, next_offset: next }
    })
    expect(pageFooter(page(20, 0, 45, 20))).toBe("Showing 1-20 of 45. Next page: --offset 20 --limit 20")
    expect(pageFooter(page(5, 40, 45, null))).toBe("Showing 41-45 of 45.")
    expect(pageFooter(page(0, 0, 0, null))).toBe("")
    expect(pageFooter(page(0, 60, 45, null))).toBe("Nothing at offset 60.")
  })
})

describe("partner CLI bar chart", () => {
  it("scales bars to the largest value in eighths of a character, with a sliver for any non-zero value", () => {
    expect(bar(10, 10, 4)).toBe("████")
    expect(bar(5, 10, 4)).toBe("██")
    expect(bar(3, 8, 4)).toBe("█▌") // 12 eighths
    expect(bar(1, 16, 4)).toBe("▎") // 2 eighths
    expect(bar(1, 1000, 4)).toBe("▏") // too small to draw, still visible
    expect(bar(0, 10, 4)).toBe("")
    expect(bar(0, 0, 4)).toBe("")
  })

  it("draws one framed row per label, bars padded to the width, notes after", () => {
    expect(
      barChart(
        [
          { label: "mon", value: 2, note: "2 clicks" },
          { label: "tue", value: 0, note: "0 clicks" },
          { label: "wed", value: 4, note: "4 clicks" }
        ],
        4
      ).split("\n")
    ).toEqual(["mon │██  │ 2 clicks", "tue │    │ 0 clicks", "wed │████│ 4 clicks"])
  })
})
