// npm run eval:bots — the bot verdict measured on the corpora of test/support/botCorpora.ts.
import { performance } from "node:perf_hooks"
import { botVerdict } from "../domain/clicks/botVerdict.ts"
import {
  browserAgents,
  crawlerAgents,
  evaluateBotVerdicts,
  IN_APP_BROWSERS,
  NOT_BOTS_HERE
} from "../test/support/botCorpora.ts"

const percent = (n: number, total: number) => `${((100 * n) / total).toFixed(2)}%`

// Timed before evaluating, so every verdict here is a first sight (no memo hit).
const agents = [...crawlerAgents().map((a) => a.userAgent), ...browserAgents(), ...IN_APP_BROWSERS.map(([, ua]) => ua)]
const unique = [...new Set(agents)]
let start = performance.now()
for (const ua of unique) botVerdict(ua)
const firstSightUs = ((performance.now() - start) * 1000) / unique.length
const ROUNDS = 20
start = performance.now()
for (let i = 0; i < ROUNDS; i++) for (const ua of unique) botVerdict(ua)
const memoUs = ((performance.now() - start) * 1000) / (unique.length * ROUNDS)

const { crawlers, excluded, browsers, inApp } = evaluateBotVerdicts()
console.log(
  `crawler corpus (crawler-user-agents): recall ${crawlers.caught}/${crawlers.total} = ${percent(crawlers.caught, crawlers.total)}, ${excluded} excluded`
)
for (const [pattern, why] of Object.entries(NOT_BOTS_HERE)) console.log(`  excluded ${pattern}: ${why}`)
for (const agent of crawlers.missed) console.log(`  missed [${agent.pattern}] ${agent.userAgent}`)
console.log(
  `browser corpus (user-agents + top-user-agents): false positives ${browsers.flagged.length}/${browsers.total}`
)
for (const ua of browsers.flagged) console.log(`  flagged (${botVerdict(ua).reason}) ${ua}`)
console.log(`in-app browser table: false positives ${inApp.flagged.length}/${inApp.total}`)
for (const app of inApp.flagged) console.log(`  flagged ${app}`)
console.log(
  `cost: ${firstSightUs.toFixed(1)} µs per verdict on first sight, ${memoUs.toFixed(2)} µs memoised (${unique.length} distinct strings)`
)
