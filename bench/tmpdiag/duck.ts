import { DuckDBInstance } from "@duckdb/node-api"
import { writeFileSync, rmSync } from "node:fs"
const N = 100_000
const UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
const rows = Array.from({ length: N }, (_, k) => ({ a: Date.now() + k, i: "bench0000001", p: null, t: "bench", h: "abcdefghijabcdefghij12", u: UA, r: null, b: false, w: null, q: k % 3 === 0 }))
writeFileSync("/tmp/i12/rows.jsonl", rows.map((r) => JSON.stringify(r)).join("\n") + "\n")
const cols: any = { a: [], i: [], p: [], t: [], h: [], u: [], r: [], b: [], w: [], q: [] }
const lines: string[] = []
for (let s = 0; s < N; s += 400) {
  const c: any = { a: [], i: [], p: [], t: [], h: [], u: [], r: [], b: [], w: [], q: [] }
  for (const row of rows.slice(s, s + 400)) for (const k of Object.keys(c)) c[k].push((row as any)[k])
  lines.push(JSON.stringify(c))
}
writeFileSync("/tmp/i12/cols.jsonl", lines.join("\n") + "\n")
rmSync("/tmp/i12/d.duckdb", { force: true })
const db = await DuckDBInstance.create("/tmp/i12/d.duckdb", { threads: "1" })
const c = await db.connect()
await c.run(`CREATE TABLE clicks (clicked_at TIMESTAMPTZ NOT NULL, tracking_id VARCHAR NOT NULL, partner_id INTEGER, tag VARCHAR NOT NULL, ip_hash VARCHAR NOT NULL, user_agent VARCHAR, referrer VARCHAR, is_bot BOOLEAN NOT NULL, bot_reason VARCHAR, is_unique BOOLEAN NOT NULL)`)
const time = async (label: string, sql: string) => { const t = performance.now(); await c.run(sql); console.log(label, ((performance.now() - t) / N * 1000).toFixed(2), "µs/row") }
const COLS = `{a: 'BIGINT', i: 'VARCHAR', p: 'INTEGER', t: 'VARCHAR', h: 'VARCHAR', u: 'VARCHAR', r: 'VARCHAR', b: 'BOOLEAN', w: 'VARCHAR', q: 'BOOLEAN'}`
for (let k = 0; k < 2; k++) {
await time("ndjson rows", `INSERT INTO clicks SELECT to_timestamp(a / 1000.0), i, p, t, h, u, r, b, w, q FROM read_json('/tmp/i12/rows.jsonl', format = 'newline_delimited', columns = ${COLS})`)
await time("ndjson columnar", `INSERT INTO clicks SELECT to_timestamp(unnest(a) / 1000.0), unnest(i), unnest(p), unnest(t), unnest(h), unnest(u), unnest(r), unnest(b), unnest(w), unnest(q) FROM read_json('/tmp/i12/cols.jsonl', format = 'newline_delimited', columns = {a: 'BIGINT[]', i: 'VARCHAR[]', p: 'INTEGER[]', t: 'VARCHAR[]', h: 'VARCHAR[]', u: 'VARCHAR[]', r: 'VARCHAR[]', b: 'BOOLEAN[]', w: 'VARCHAR[]', q: 'BOOLEAN[]'})`)
await time("csv", `SELECT 1`)
}
