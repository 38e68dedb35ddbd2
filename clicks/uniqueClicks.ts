import { Effect, Schema } from "effect"
import { judgeWindow } from "../domain/clicks/UniqueWindow.ts"
import { Count, Text } from "../infra/columns.ts"
import { jsonRowsParam, type Tx } from "../infra/Database.ts"
import type { StoredClick } from "./ClickJournal.ts"

// Unique clicks decided by the database, so replicas agree: "the first click
// of a visitor (IP hash) on a link, then the first one an hour or more after
// that window's start" (domain/clicks/UniqueWindow.ts), with the window's
// start kept in `click_windows`, one row per link and visitor. Inside the
// transaction that stores the clicks:
// 1. insert the keys no replica has seen (ON CONFLICT DO NOTHING: of two
//    replicas inserting one key at once, one waits for the other's COMMIT and
//    then finds it), 2. lock the other keys' rows (FOR UPDATE), 3. judge the
//    batch against the stored starts, 4. store the moved starts. Keys are
//    taken in one order (tracking id, hash) in every statement, so two
//    replicas' batches queue on a shared key instead of deadlocking.
// Bots never take a human's unique slot.

const KeyRow = Schema.Struct({ i: Text, h: Text })
const StartRow = Schema.Struct({ i: Text, h: Text, s: Count })
const KEY_COLUMNS = { i: "VARCHAR", h: "VARCHAR", s: "BIGINT" } as const

const keyOf = (trackingId: string, ipHash: string) => `${trackingId}\n${ipHash}`

/** The unique verdict of each click (same order as `clicks`). */
export const decideUniques = (tx: Tx, clicks: ReadonlyArray<StoredClick>) =>
  Effect.gen(function* () {
    const verdicts = clicks.map(() => false)
    const byKey = new Map<string, Array<number>>()
    clicks.forEach((click, index) => {
      if (click.b) return
      const key = keyOf(click.i, click.h)
      const indices = byKey.get(key)
      if (indices === undefined) byKey.set(key, [index])
      else indices.push(index)
    })
    if (byKey.size === 0) return verdicts
    for (const indices of byKey.values()) indices.sort((x, y) => clicks[x].a - clicks[y].a)
    const first = [...byKey.values()].map((indices) => clicks[indices[0]])

    const fresh = yield* tx.queryAs(
      KeyRow,
      `INSERT INTO click_windows (tracking_id, ip_hash, window_start_ms)
       SELECT k.i, k.h, k.s FROM ${tx.jsonRows("$1", KEY_COLUMNS)} k ORDER BY k.i, k.h
       ON CONFLICT (tracking_id, ip_hash) DO NOTHING
       RETURNING tracking_id AS i, ip_hash AS h`,
      [jsonRowsParam(first.map((c) => ({ i: c.i, h: c.h, s: c.a })))]
    )
    const starts = new Map<string, number | undefined>(fresh.map((row) => [keyOf(row.i, row.h), undefined]))
    const seen = first.filter((c) => !starts.has(keyOf(c.i, c.h)))
    if (seen.length > 0) {
      const stored = yield* tx.queryAs(
        StartRow,
        `SELECT w.tracking_id AS i, w.ip_hash AS h, w.window_start_ms AS s
         FROM click_windows w JOIN ${tx.jsonRows("$1", KEY_COLUMNS)} k ON w.tracking_id = k.i AND w.ip_hash = k.h
         ORDER BY w.tracking_id, w.ip_hash FOR UPDATE OF w`,
        [jsonRowsParam(seen.map((c) => ({ i: c.i, h: c.h, s: 0 })))]
      )
      for (const row of stored) starts.set(keyOf(row.i, row.h), row.s)
    }

    const moved: Array<{ i: string; h: string; s: number }> = []
    for (const [key, indices] of byKey) {
      const stored = starts.get(key)
      const judged = judgeWindow(
        stored,
        indices.map((index) => clicks[index].a)
      )
      indices.forEach((index, n) => (verdicts[index] = judged.unique[n]))
      // A fresh key was inserted with its first click's time; store the start only when it moved.
      const inserted = stored === undefined ? clicks[indices[0]].a : stored
      if (judged.start !== undefined && judged.start !== inserted) {
        moved.push({ i: clicks[indices[0]].i, h: clicks[indices[0]].h, s: judged.start })
      }
    }
    if (moved.length > 0) {
      yield* tx.run(
        `UPDATE click_windows w SET window_start_ms = k.s FROM ${tx.jsonRows("$1", KEY_COLUMNS)} k
         WHERE w.tracking_id = k.i AND w.ip_hash = k.h`,
        [jsonRowsParam(moved)]
      )
    }
    return verdicts
  })
