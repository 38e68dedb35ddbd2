import { Schema } from "effect"
import { CliError } from "effect/cli"

// Every failure of the partner CLI is one of these. Each carries the
// sentence a person needs (`CliError.userMessage`): `Command.run` prints it on
// stderr and the process exits non-zero, so no command prints its own errors.

/** The API answered with its error body `{ error: { code, message } }` (or a non-2xx without one). */
export class ApiError extends Schema.TaggedError<ApiError>()("ApiError", {
  status: Schema.Number,
  code: Schema.String,
  message: Schema.String,
  details: Schema.optional(Schema.Unknown),
  /** Seconds, from the Retry-After header of a 429 or 503. */
  retryAfter: Schema.optional(Schema.String)
}) {
  override get [CliError.userMessage]() {
    const hint = this.status === 401 ? "\n  Check the API key (run `partner init`, or set AFFILIATE_API_KEY)." :
      this.status === 429 ? `\n  Rate limited: try again in ${this.retryAfter ?? "a few"} seconds.` :
      this.status === 503 && this.retryAfter !== undefined ? `\n  Try again in ${this.retryAfter} seconds.` :
      ""
    return `API error ${this.status} (${this.code}): ${this.message}${hint}`
  }
}

/** Nothing answered at the URL: connection refused, unknown host, timeout. */
export class ServerUnreachable extends Schema.TaggedError<ServerUnreachable>()("ServerUnreachable", {
  url: Schema.String,
  reason: Schema.String
}) {
  override get [CliError.userMessage]() {
    return `The server is not reachable at ${this.url} (${this.reason}).\n` +
      "  Start it with `npm start` (it listens on http://127.0.0.1:3000 by default), " +
      "or point the CLI at another server with --url or AFFILIATE_API_URL."
  }
}

/** The server answered 2xx, but not with the JSON this CLI understands (wrong URL, version skew). */
export class UnexpectedResponse extends Schema.TaggedError<UnexpectedResponse>()("UnexpectedResponse", {
  url: Schema.String,
  message: Schema.String
}) {
  override get [CliError.userMessage]() {
    return `Unexpected response from ${this.url}: ${this.message}`
  }
}

/** The local configuration is missing, unreadable, or would be overwritten. */
export class ConfigError extends Schema.TaggedError<ConfigError>()("ConfigError", {
  message: Schema.String
}) {
  override get [CliError.userMessage]() {
    return this.message
  }
}

export type PartnerCliError = ApiError | ServerUnreachable | UnexpectedResponse | ConfigError
