import { existsSync } from "node:fs"
import { createServer } from "node:net"

// What `npm run pg:local` and `npm run meili:local` share: they stop with one
// line saying what is wrong and what to do (a taken port, a folder an earlier
// first start left half-made), never with a stack or a bare `undefined`.

export class LocalServerError extends Error {}

/** Fails naming the port and the variable that moves it when 127.0.0.1:`port` is taken. */
export const ensurePortFree = (port: number, variable: string, command: string) =>
  new Promise<void>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", () =>
      reject(
        new LocalServerError(
          `port ${port} on 127.0.0.1 is in use (another server, or this one already running): ` +
            `set ${variable} to a free port, e.g. ${variable}=${port + 1} npm run ${command}`
        )
      )
    )
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve()))
  })

/** A port number from `variable`, or the default; anything else stops naming the variable. */
export const portFrom = (variable: string, fallback: number) => {
  const raw = process.env[variable]
  if (raw === undefined || raw === "") return fallback
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new LocalServerError(`${variable} must be a port number 1..65535 (got '${raw}')`)
  return port
}

/**
 * A data folder exists but lacks the file its server writes once it has made
 * it (`marker`): an earlier first start stopped half-way, and starting on it
 * would fail obscurely.
 */
export const refuseHalfMade = (folder: string, marker: string, shown: string) => {
  if (existsSync(folder) && !existsSync(marker))
    throw new LocalServerError(
      `${shown} is half-made (an earlier first start stopped before it finished): remove it with \`rm -rf ${shown}\` and run again`
    )
}

/** Runs `main`; a failure is one line on stderr and exit code 1. */
export const runLocalServer = (name: string, main: () => Promise<void>) =>
  main().catch((error: unknown) => {
    const message =
      error instanceof Error ? error.message : error === undefined ? "stopped during start-up" : String(error)
    process.stderr.write(`${name}: ${message}\n`)
    process.exit(1)
  })
