import { expect, it } from "vitest"
import { McpSessionTable } from "../../../api/mcp/McpSessionTable.ts"

// The bookkeeping behind the /mcp session caps (sessionLimits.test.ts drives
// them over HTTP): slots are reserved before the server answers, so that
// concurrent initializations cannot pass a cap together; a cap on all
// sessions holds however many addresses the callers use.

it("reserves per owner and in all, and gives places back when a session closes or never opens", () => {
  const table = new McpSessionTable(1_000, 3)
  expect(table.reserve("ip:a", 2)).toBe("reserved")
  expect(table.reserve("ip:a", 2)).toBe("reserved") // two initializations in flight at once
  expect(table.reserve("ip:a", 2)).toBe("owner_full")
  table.open("s1", "ip:a", 0)
  table.release("ip:a") // the second opened no session
  expect(table.reserve("ip:b", 2)).toBe("reserved")
  table.open("s2", "ip:b", 0)
  expect(table.reserve("ip:c", 2)).toBe("reserved")
  table.open("s3", "ip:c", 0)
  expect(table.reserve("ip:d", 2)).toBe("all_full")
  expect(table.close("s1")).toBe(true)
  expect(table.close("s1")).toBe(false)
  expect(table.reserve("ip:d", 2)).toBe("reserved")
})

it("a session is idle after idleMs without a request; a request keeps it alive", () => {
  const table = new McpSessionTable(1_000, 10)
  table.reserve("key:p", 5)
  table.open("s1", "key:p", 0)
  table.reserve("key:p", 5)
  table.open("s2", "key:p", 0)
  expect(table.touch("s1", 900)).toBe("live")
  expect(table.idle(1_500)).toEqual(["s2"])
  expect(table.touch("s2", 1_500)).toBe("expired")
  expect(table.touch("nope", 1_500)).toBe("unknown")
})
