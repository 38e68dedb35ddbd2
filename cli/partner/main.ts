import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Cause, Console, Effect, Exit, Option, Runtime } from "effect"
import { CliError, CliOutput, Command } from "effect/cli"
import { FetchHttpClient, type HttpClient } from "effect/http"
import { EXIT_SERVER, EXIT_USAGE, isPartnerCliError } from "./errors.ts"
import { CLI_NAME } from "./name.ts"
import { PartnerEnv } from "./PartnerEnv.ts"

// Runs the partner CLI and owns everything a script sees besides stdout:
// one line on stderr per failure, never a stack trace, and the exit code of
// the failure's class (errors.ts). effect/cli's own runner would print help
// plus a framed ERROR block for a parse error and exit 1 for everything.

/** `--help` and `--version` go to stdout as usual; a bad invocation becomes one line (below), without the help. */
const presenter = CliOutput.layerPresenter({
  present: (event) => (event._tag === "InvalidInvocation" ? Effect.void : CliOutput.defaultPresenter.present(event))
})

const say = (line: string) => Console.error(`${CLI_NAME}: ${line}`)

/** A parse or validation error of effect/cli: the usage class, with a pointer to the right help page. */
const usageLine = (error: CliError.ShowHelp) => {
  // "Unknown subcommand ...\n\nDid you mean this? ..." reads as two sentences on one line
  const messages = error.errors.map((e) =>
    e.message
      .trim()
      .replace(/([^.?!:])\s*\n\s*/g, "$1. ")
      .replace(/\s*\n\s*/g, " ")
  )
  return `${messages.join("; ")} (see \`${[CLI_NAME, ...error.commandPath.slice(1)].join(" ")} --help\`)`
}

const report = (cause: Cause.Cause<unknown>): Effect.Effect<number> =>
  Effect.gen(function* () {
    const error = Cause.findErrorOption(cause)
    if (Option.isSome(error)) {
      const failure = error.value
      if (isPartnerCliError(failure)) {
        yield* say(failure.line)
        return failure.exitCode
      }
      if (CliError.isCliError(failure) && failure._tag === "ShowHelp") {
        // no errors: a command that needs a subcommand was run bare, and its help is already on stdout
        if (failure.errors.length > 0) yield* say(usageLine(failure))
        return EXIT_USAGE
      }
      if (CliError.isCliError(failure)) {
        yield* say(failure.message)
        return EXIT_USAGE
      }
    }
    // A defect is a bug in this CLI, not something the user did: one line, the details on request.
    const debug = yield* PartnerEnv.debug
    const squashed = Cause.squash(cause)
    yield* say(
      `internal error: ${squashed instanceof Error ? squashed.message : String(squashed)}` +
        (Option.isSome(debug) ? "" : " (set AFF_DEBUG=1 for details)")
    )
    if (Option.isSome(debug)) yield* Console.error(Cause.pretty(cause))
    return EXIT_SERVER
  })

export const runPartnerCli = <Name extends string, Input, E, ContextInput>(
  command: Command.Command<Name, Input, ContextInput, E, HttpClient.HttpClient | NodeServices.NodeServices>,
  version: string
) => {
  // `aff links | head -1`: the reader left; that is not an error worth a stack trace
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0)
    process.stderr.write(`${CLI_NAME}: cannot write the output: ${error.message}\n`)
    process.exit(EXIT_SERVER)
  })
  command.pipe(
    Command.run({ version }),
    Effect.as(0),
    // an interruption (Ctrl-C, or Ctrl-C at a prompt) stays one, so the runtime exits 130
    Effect.catchCause((cause) => (Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause) : report(cause))),
    Effect.provide(presenter),
    Effect.provide(FetchHttpClient.layer),
    Effect.provide(NodeServices.layer),
    (program) =>
      NodeRuntime.runMain(program, {
        disableErrorReporting: true,
        teardown: (exit, onExit) =>
          Exit.isSuccess(exit) && typeof exit.value === "number"
            ? onExit(exit.value)
            : Runtime.defaultTeardown(exit, onExit)
      })
  )
}
