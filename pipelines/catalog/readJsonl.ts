import { Effect, Result, Schema } from "effect"
import { createReadStream } from "node:fs"
import { createInterface } from "node:readline"
import { createGunzip } from "node:zlib"
import { PipelineError } from "../errors.ts"
import type { LoadInput } from "../FeedLoaders.ts"
import { describeIssues, type Rejection } from "../Rejections.ts"

export interface JsonlRecord<T> {
  readonly line: number
  readonly value: T
}

/** Lines parsed and validated between two turns of the event loop. */
const LINES_PER_TURN = 500

/**
 * Reads a JSON-lines file (gzip or not) and validates each line with `schema`.
 * Catalog feeds are small (hundreds to tens of thousands of records), so the
 * valid records are kept in memory; blank lines are ignored. The feed runs in
 * the process that answers requests: the lines of a chunk arrive without the
 * event loop turning, so it is let through every LINES_PER_TURN lines (30,000
 * programmes held it 120 ms in one stretch otherwise).
 */
export const readJsonl = <S extends Schema.Decoder<unknown>>(input: LoadInput, schema: S) =>
  Effect.tryPromise({
    try: async (signal) => {
      const decode = Schema.decodeUnknownResult(schema, { errors: "all" })
      const raw = createReadStream(input.file)
      const lines = createInterface({ input: input.gzip ? raw.pipe(createGunzip()) : raw, crlfDelay: Infinity })
      const valid: Array<JsonlRecord<S["Type"]>> = []
      const rejections: Array<Rejection> = []
      let line = 0
      let rowsRead = 0
      for await (const text of lines) {
        line++
        if (signal.aborted) throw new Error("interrupted")
        if (text.trim() === "") continue
        rowsRead++
        let json: unknown
        try {
          json = JSON.parse(text)
        } catch (cause) {
          rejections.push({ line, reason: `not valid JSON: ${(cause as Error).message}`, raw: text })
          continue
        }
        const parsed = decode(json)
        if (Result.isSuccess(parsed)) valid.push({ line, value: parsed.success })
        else rejections.push({ line, reason: describeIssues(parsed.failure.issue), raw: text })
        if (rowsRead % LINES_PER_TURN === 0) {
          input.progress(rowsRead)
          await new Promise((resolve) => setImmediate(resolve))
        }
      }
      input.progress(rowsRead)
      return { valid, rejections, rowsRead }
    },
    catch: (cause) =>
      new PipelineError({
        feed: input.feed.name,
        stage: "parse",
        message: `cannot read JSON lines: ${(cause as Error).message}`
      })
  })
