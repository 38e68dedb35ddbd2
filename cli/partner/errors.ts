import { Schema } from "effect"

// Every failure of the partner CLI is one of these. Each knows the one line a
// person needs (`line`) and the exit code a script branches on (`exitCode`):
//   1  usage: bad flags or arguments, a bad local config, a 4xx that names a field
//   2  the server or the network: unreachable, timeout, 5xx, 429, an unexpected
//      body, and 401/403 (the server refused the key: revoked, or registered on
//      another server; nothing on the command line would fix it)
//   3  not found: a 404, or `match` found no programme
// cli/partner/main.ts prints `line` on stderr and exits with `exitCode`; no
// command prints its own errors.

export const EXIT_USAGE = 1
export const EXIT_SERVER = 2
export const EXIT_NOT_FOUND = 3

/** Server messages may carry newlines; an error is one line. */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, "; ").trim()

/** The API answered with its error body `{ error: { code, message } }` (or a non-2xx without one). */
export class ApiError extends Schema.TaggedError<ApiError>()("ApiError", {
  status: Schema.Number,
  code: Schema.String,
  message: Schema.String,
  details: Schema.optional(Schema.Unknown),
  /** Seconds, from the Retry-After header of a 429 or 503. */
  retryAfter: Schema.optional(Schema.String)
}) {
  get exitCode(): number {
    if (this.status === 404) return EXIT_NOT_FOUND
    if (this.status === 401 || this.status === 403 || this.status === 429 || this.status >= 500) return EXIT_SERVER
    return this.status >= 400 ? EXIT_USAGE : EXIT_SERVER
  }

  get line(): string {
    const hint =
      this.status === 401
        ? " (check the API key: AFF_API_KEY, or the one saved by `aff init`)"
        : this.status === 429
          ? ` (rate limited: try again in ${this.retryAfter ?? "a few"} seconds)`
          : this.status === 503 && this.retryAfter !== undefined
            ? ` (try again in ${this.retryAfter} seconds)`
            : ""
    return `API error ${this.status} (${this.code}): ${oneLine(this.message)}${hint}`
  }
}

/** Nothing answered at the URL: connection refused, unknown host, timeout. */
export class ServerUnreachable extends Schema.TaggedError<ServerUnreachable>()("ServerUnreachable", {
  url: Schema.String,
  reason: Schema.String
}) {
  get exitCode(): number {
    return EXIT_SERVER
  }

  get line(): string {
    return (
      `The server is not reachable at ${this.url} (${oneLine(this.reason)}): start it with \`npm start\`, ` +
      "or choose another server with --server or AFF_SERVER."
    )
  }
}

/** The server answered, but not with the JSON this CLI understands (wrong URL, version skew). */
export class UnexpectedResponse extends Schema.TaggedError<UnexpectedResponse>()("UnexpectedResponse", {
  url: Schema.String,
  message: Schema.String
}) {
  get exitCode(): number {
    return EXIT_SERVER
  }

  get line(): string {
    return `Unexpected response from ${this.url}: ${oneLine(this.message)}`
  }
}

/** The local configuration is missing, unreadable, or would be overwritten. */
export class ConfigError extends Schema.TaggedError<ConfigError>()("ConfigError", {
  message: Schema.String
}) {
  get exitCode(): number {
    return EXIT_USAGE
  }

  get line(): string {
    return oneLine(this.message)
  }
}

/** The command line is incomplete in a way the flag parser cannot see (e.g. `init` without a terminal to ask in). */
export class UsageError extends Schema.TaggedError<UsageError>()("UsageError", {
  message: Schema.String
}) {
  get exitCode(): number {
    return EXIT_USAGE
  }

  get line(): string {
    return oneLine(this.message)
  }
}

/** `match` got a definite answer: no programme pays for this URL. */
export class NotMatched extends Schema.TaggedError<NotMatched>()("NotMatched", {
  reason: Schema.String,
  message: Schema.String
}) {
  get exitCode(): number {
    return EXIT_NOT_FOUND
  }

  get line(): string {
    return `Not matched (${this.reason}): ${oneLine(this.message)}`
  }
}

export type PartnerCliError = ApiError | ServerUnreachable | UnexpectedResponse | ConfigError | UsageError | NotMatched

export const isPartnerCliError = (error: unknown): error is PartnerCliError =>
  error instanceof ApiError ||
  error instanceof ServerUnreachable ||
  error instanceof UnexpectedResponse ||
  error instanceof ConfigError ||
  error instanceof UsageError ||
  error instanceof NotMatched
