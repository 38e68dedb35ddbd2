import { Effect, Layer, Stdio, Stream } from "effect"

// Effect's stdio MCP transport ends the whole server on a line that is not
// JSON. A client's stray line should cost that line, not the connection: we
// answer it with JSON-RPC's parse error (id null) and pass only JSON lines on.

const PARSE_ERROR = `${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })}\n`

const isJson = (line: string) => {
  try {
    JSON.parse(line)
    return true
  } catch {
    return false
  }
}

/** The process's Stdio, with stdin reduced to its JSON lines. */
export const JsonLinesOnly = Layer.effect(
  Stdio.Stdio,
  Effect.map(Stdio.Stdio, (stdio) =>
    Stdio.make({
      args: stdio.args,
      stdout: stdio.stdout,
      stderr: stdio.stderr,
      stdin: stdio.stdin.pipe(
        Stream.decodeText(),
        Stream.splitLines,
        Stream.filter((line) => {
          if (line.trim() === "") return false
          if (isJson(line)) return true
          process.stdout.write(PARSE_ERROR)
          return false
        }),
        Stream.map((line) => `${line}\n`),
        Stream.encodeText
      )
    })
  )
)
