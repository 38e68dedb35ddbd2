import type { CampaignResult, Finding } from "./campaign.ts"

// A campaign's result as text: answers by operation and status (how far the
// requests reached), and the findings, summarised then one by one.

/** One line per operation: its answers by status, e.g. "links.match 200×9 400×21". */
export const formatStatuses = (statuses: CampaignResult["statuses"]): string =>
  [...statuses.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([op, tally]) =>
        `  ${op}: ${[...tally.entries()]
          .sort(([a], [b]) => a - b)
          .map(([status, count]) => `${status}×${count}`)
          .join(" ")}`
    )
    .join("\n")

/** The findings as a report: a summary by (check, problem), then one block per finding. */
export const formatFindings = (findings: ReadonlyArray<Finding>): string => {
  const byProblem = new Map<string, { count: number; operations: Set<string> }>()
  for (const f of findings) {
    // what varies per request (a snippet, a duration) would split one problem into many
    const problem = `[${f.check}] ${f.status} ${f.code ?? ""} ${f.problem.replace(/ (near|in) .*$/, "").replace(/\d+ ms/, "… ms")}`
    const group = byProblem.get(problem) ?? { count: 0, operations: new Set<string>() }
    group.count += f.count
    group.operations.add(f.operation)
    byProblem.set(problem, group)
  }
  const summary = [...byProblem.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([problem, group]) => `  ${problem} ×${group.count} on ${[...group.operations].sort().join(", ")}`)
  return `summary (${findings.length} distinct findings):\n${summary.join("\n")}\n\nfindings:\n${details(findings)}`
}

const details = (findings: ReadonlyArray<Finding>): string =>
  [...findings]
    .sort(
      (a, b) =>
        a.check.localeCompare(b.check) || a.operation.localeCompare(b.operation) || a.mutation.localeCompare(b.mutation)
    )
    .map(
      (f) =>
        `[${f.check}] ${f.operation} · ${f.mutation} → ${f.status}${f.code === undefined ? "" : ` ${f.code}`} (×${f.count}): ${f.problem}\n` +
        `    request: ${f.request}\n    answer:  ${f.answer}`
    )
    .join("\n")
