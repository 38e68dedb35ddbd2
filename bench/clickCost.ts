// npm run bench:click-cost
// What a click costs beyond the event loop, per stage, each against a
// baseline measured in the same run (CPU µs per click, all threads of this
// process: DuckDB's included):
// - the click worker's encode (ClickEncoder: hash, bot verdict, uniqueness,
//   JSON line) for the redirect bench's traffic (one visitor, one user agent)
//   and for distinct visitors (a new IP per click); the IP hash alone against
//   node's createHmac per IP, which the hasher used before;
// - the journal's group commit (SegmentWriter: write + fdatasync) of 25 ms of
//   clicks at RATE clicks/s against 10 ms groups (the previous cadence), and
//   against a plain writeSync of the string on an O_APPEND file (how the
//   worker appended before its writes went at the durable length);
// - DuckDB's apply of a segment (the service's own duckdbJournalStore:
//   read_json + INSERT + applied_seq + COMMIT) against read_csv with explicit
//   columns of the same clicks (an alternative format, measured and rejected:
//   with the worker writing CSV lines the encode cost 1.02-1.04x of JSON's and
//   the whole apply 0.93-0.95x of read_json's, ~0.03 µs a click in all: not
//   worth a second journal format).
// BENCH_CLICKS (8,500: ~0.25 s of clicks at half our peak) per segment; BENCH_ROUNDS (15) medians
// (the group commits: 30 rounds of each, alternated).
import { Effect, Exit, Scope } from "effect"
import { createHmac, randomBytes } from "node:crypto"
import { closeSync, fdatasyncSync, fsyncSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs"
import { join } from "node:path"
import { ClickEncoder } from "../clicks/ClickEncoder.ts"
import { duckdbJournalStore } from "../clicks/ClickJournal.ts"
import { segmentPath } from "../clicks/segmentFiles.ts"
import { ClickPage } from "../clicks/ClickPage.ts"
import { SegmentWriter } from "../clicks/SegmentWriter.ts"
import { VisitorHasher } from "../domain/clicks/VisitorHasher.ts"
import { Database } from "../infra/Database.ts"
import { machineLoad } from "./support/machineLoad.ts"
import { CHROME } from "./support/redirectFixture.ts"
import { median } from "./support/redirectFixture.ts"

const CLICKS = Number(process.env.BENCH_CLICKS ?? 8_500)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15)
const RATE = 34_000 // clicks per second: half our peak in bench:redirect
const dir = join("data", "var", `bench-click-cost-${process.pid}`)
rmSync(dir, { recursive: true, force: true })
mkdirSync(dir, { recursive: true })

const cpuUs = () => {
  const used = process.cpuUsage()
  return used.user + used.system
}
/** Median CPU µs per click of `run` over the rounds (after two warm-up runs). */
const perClick = (run: () => void, clicks = CLICKS) => {
  run()
  run()
  const samples: Array<number> = []
  for (let round = 0; round < ROUNDS; round++) {
    const before = cpuUs()
    run()
    samples.push((cpuUs() - before) / clicks)
  }
  return median(samples)
}
const line = (label: string, ours: number, baseline: number, baselineLabel: string) =>
  console.log(
    `${label.padEnd(44)} ${ours.toFixed(2).padStart(6)} µs/click; ${baselineLabel} ${baseline.toFixed(2)} µs/click; ` +
      `ours/baseline ${(ours / baseline).toFixed(2)}x  (${machineLoad()})`
  )

const agents = Array.from({ length: 20 }, (_, i) => CHROME.replace("131.0.0.0", `131.0.${i}.0`))
const ipOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
const pagesOf = (distinct: boolean) => {
  const pages = [new ClickPage()]
  const now = Date.now()
  for (let i = 0; i < CLICKS; i++) {
    if (!pages.at(-1)!.hasRoom) pages.push(new ClickPage())
    pages
      .at(-1)!
      .append(
        now + i,
        i % 3 === 0 ? null : 7,
        `bench${String(i % 1_000).padStart(7, "0")}`,
        i % 2 === 0 ? "" : "newsletter",
        distinct ? ipOf(i) : "127.0.0.1",
        distinct ? agents[i % agents.length] : CHROME,
        i % 4 === 0 ? 'https://ref.example/a,"b"' : undefined
      )
  }
  return pages
}
const encodeAll = (encoder: ClickEncoder, pages: ReadonlyArray<ClickPage>) => {
  let lines = ""
  for (const page of pages) lines += encoder.encode(page.bytes.buffer as ArrayBuffer, page.used).lines
  return lines
}

console.log(`${CLICKS} clicks per segment, median of ${ROUNDS} rounds; ${machineLoad()}`)
// ---- the worker's encode, and the IP hash alone ----------------------------------
const oneVisitor = pagesOf(false)
const distinctVisitors = pagesOf(true)
const encodeOne = perClick(() => encodeAll(new ClickEncoder(true), oneVisitor))
const encodeDistinct = perClick(() => encodeAll(new ClickEncoder(true), distinctVisitors))
console.log(`worker encode, one visitor (bench:redirect's traffic)     ${encodeOne.toFixed(2)} µs/click`)
console.log(`worker encode, a new visitor per click                     ${encodeDistinct.toFixed(2)} µs/click`)
const ips = Array.from({ length: CLICKS }, (_, i) => ipOf(i))
const salt = randomBytes(32)
line(
  "IP hash of a new visitor (VisitorHasher)",
  perClick(() => {
    const hasher = new VisitorHasher()
    for (const ip of ips) hasher.hash(ip)
  }),
  perClick(() => {
    for (const ip of ips) createHmac("sha256", salt).update(ip).digest("base64url").slice(0, 22)
  }),
  "createHmac per IP"
)

// ---- group commit -----------------------------------------------------------------
const lines = encodeAll(new ClickEncoder(true), oneVisitor)
const bytesPerClick = Buffer.byteLength(lines) / CLICKS
const groupDir = join(dir, "groups")
mkdirSync(groupDir)
let groupSeq = 0
/**
 * One segment of `groupMs` groups, a new file each run (its folder synced
 * once), as the worker writes it; how many clicks that is.
 */
const groupCommit = (groupMs: number, writer: "SegmentWriter" | "O_APPEND" = "SegmentWriter") => {
  const group = Math.round((RATE * groupMs) / 1000)
  const text = "x".repeat(Math.round(bytesPerClick * group) - 1) + "\n"
  const commits = Math.max(4, Math.round(CLICKS / group))
  const run = () => {
    const seq = ++groupSeq
    if (writer === "SegmentWriter") {
      const segment = new SegmentWriter(groupDir)
      for (let i = 0; i < commits; i++) segment.append(seq, text)
      segment.close()
    } else {
      const fd = openSync(segmentPath(groupDir, seq), "a", 0o600)
      for (let i = 0; i < commits; i++) {
        writeSync(fd, text)
        fdatasyncSync(fd)
        if (i === 0) {
          const folder = openSync(groupDir, "r")
          fsyncSync(folder)
          closeSync(folder)
        }
      }
      closeSync(fd)
    }
    rmSync(segmentPath(groupDir, seq))
  }
  return { run, clicks: commits * group }
}
/** Median CPU µs per click of each, alternated round by round so both see the same machine (a disk's pace drifts). */
const alternated = (ours: ReturnType<typeof groupCommit>, baseline: ReturnType<typeof groupCommit>) => {
  const samples = [[] as Array<number>, [] as Array<number>]
  for (let round = -2; round < ROUNDS * 2; round++) {
    ;[ours, baseline].forEach(({ run, clicks }, which) => {
      const before = cpuUs()
      run()
      if (round >= 0) samples[which].push((cpuUs() - before) / clicks)
    })
  }
  return [median(samples[0]), median(samples[1])] as const
}
line("journal group commit every 25 ms", ...alternated(groupCommit(25), groupCommit(10)), "every 10 ms")
// Its writes go at the durable length with their byte count checked (a failed commit's retry leaves each line once).
line(
  "journal group commit (SegmentWriter), 25 ms",
  ...alternated(groupCommit(25), groupCommit(25, "O_APPEND")),
  "writeSync(string) on O_APPEND"
)

// ---- DuckDB apply -------------------------------------------------------------------
const toCsv = (jsonLines: string) =>
  jsonLines
    .trimEnd()
    .split("\n")
    .map((text) => {
      const c = JSON.parse(text) as Record<string, string | number | boolean | null>
      const field = (v: string | number | boolean | null) =>
        v === null ? "" : typeof v === "string" ? `"${v.replaceAll('"', '""')}"` : String(v)
      return ["a", "i", "p", "t", "h", "u", "r", "b", "w", "q"].map((k) => field(c[k])).join(",")
    })
    .join("\n") + "\n"
const csvPath = join(dir, "segment.csv")
writeFileSync(csvPath, toCsv(lines))
const COLUMNS = `{a: 'BIGINT', i: 'VARCHAR', p: 'INTEGER', t: 'VARCHAR', h: 'VARCHAR', u: 'VARCHAR', r: 'VARCHAR', b: 'BOOLEAN', w: 'VARCHAR', q: 'BOOLEAN'}`
const csvInsert = `INSERT INTO clicks SELECT to_timestamp(a / 1000.0), i, p, t, h, u, r, b, w, q
  FROM read_csv('${csvPath}', header = false, auto_detect = false, delim = ',', quote = '"', escape = '"',
    allow_quoted_nulls = false, columns = ${COLUMNS})`

const scope = Effect.runSync(Scope.make())
try {
  // One DuckDB thread, as the service runs on this 2-core machine (cores - 1).
  const db = await Effect.runPromise(Scope.provide(Database.make(join(dir, "clicks.duckdb"), 1, 1), scope))
  const store = duckdbJournalStore(db)
  let seq = 0
  /** Stores `clicks` clicks as one apply of the writer (one segment per 8,500 clicks, as many as it takes). */
  const applyJson = async (clicks = CLICKS) => {
    const segments: Array<{ seq: number; path: string }> = []
    for (let left = clicks; left > 0; left -= CLICKS) {
      const path = segmentPath(dir, ++seq)
      const part = left >= CLICKS ? lines : lines.split("\n", left).join("\n") + "\n"
      writeFileSync(path, part)
      segments.push({ seq, path })
    }
    await Effect.runPromise(store.store(segments))
    for (const segment of segments) rmSync(segment.path)
  }
  // The same transaction as the store's, with read_csv in place of read_json.
  const applyCsv = () =>
    Effect.runPromise(
      db.transaction((tx) =>
        Effect.andThen(tx.run(csvInsert), tx.run("UPDATE click_journal_state SET applied_seq = $1", [++seq]))
      )
    )
  const samples = { json: [] as Array<number>, csv: [] as Array<number>, jsonMs: [] as Array<number> }
  for (let round = -2; round < ROUNDS; round++) {
    // interleaved, so both see the same machine and the same table size
    for (const [kind, apply] of [
      ["json", () => applyJson()],
      ["csv", applyCsv]
    ] as const) {
      const before = cpuUs()
      const started = performance.now()
      await apply()
      if (round < 0) continue
      samples[kind].push((cpuUs() - before) / CLICKS)
      if (kind === "json") samples.jsonMs.push(performance.now() - started)
    }
  }
  line("DuckDB apply of a segment (read_json)", median(samples.json), median(samples.csv), "read_csv")
  // The slowest applies are the ones whose COMMIT also checkpoints the WAL into the table.
  console.log(
    `DuckDB apply wall time per segment: median ${median(samples.jsonMs).toFixed(1)} ms, ` +
      `max ${Math.max(...samples.jsonMs).toFixed(1)} ms (${machineLoad()})`
  )
  // Each apply has a fixed cost (statement, applied_seq, COMMIT): what the writer's cadence trades.
  const sizes = [Math.round(CLICKS / 4), CLICKS, CLICKS * 3]
  const bySize = new Map(sizes.map((size) => [size, [] as Array<number>]))
  for (let round = 0; round < ROUNDS; round++) {
    for (const size of sizes) {
      const before = cpuUs()
      await applyJson(size)
      bySize.get(size)!.push((cpuUs() - before) / size)
    }
  }
  console.log(
    `DuckDB apply CPU by clicks per apply: ${sizes.map((size) => `${size}: ${median(bySize.get(size)!).toFixed(2)} µs/click`).join(", ")} (${machineLoad()})`
  )
} finally {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(dir, { recursive: true, force: true })
}
