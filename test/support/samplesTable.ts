import { Effect } from "effect"
import { Database } from "../../infra/Database.ts"

/**
 * An in-memory DuckDB holding generated text `samples` in table `r`: `k` (the
 * sample's index) and one VARCHAR column per name, NULL where a sample's value
 * is null. For property tests that compare a SQL check with its Schema rule.
 */
export const samplesTable = <C extends string>(
  columns: ReadonlyArray<C>,
  samples: ReadonlyArray<Record<C, string | null>>
) =>
  Effect.gen(function* () {
    const db = yield* Database.make(":memory:", 1)
    yield* db.run(`CREATE TABLE r (k INTEGER, ${columns.map((c) => `${c} VARCHAR`).join(", ")})`)
    yield* db.append("r", (appender) => {
      samples.forEach((sample, k) => {
        appender.appendInteger(k)
        for (const c of columns) {
          const value = sample[c]
          if (value === null) appender.appendNull()
          else appender.appendVarchar(value)
        }
        appender.endRow()
      })
    })
    return db
  })
