import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"

// POSTBACK_SECRETS: the HMAC keys networks sign their postbacks with, as a
// JSON object of network id -> secret, or -> a list of secrets (any of them
// verifies, so a secret is rotated without a moment where either side's
// postbacks are refused). A secret anyone can guess mints commissions, so a
// weak one stops the start-up rather than serving with it.

/** Network id -> the secrets any of which verifies its postbacks (at least one each). */
export type PostbackSecrets = Readonly<Record<string, ReadonlyArray<Redacted.Redacted<string>>>>

/** HMAC-SHA256 keys shorter than its 32-byte output are guessable sooner than the MAC itself. */
export const MIN_POSTBACK_SECRET_BYTES = 32

const NETWORK_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/

export class PostbackSecretsError extends Data.TaggedError("PostbackSecretsError")<{
  readonly network: string | undefined
  readonly problem: string
}> {
  override get message() {
    return `POSTBACK_SECRETS${this.network === undefined ? "" : ` network "${this.network}"`}: ${this.problem}`
  }
}

const refuse = (problem: string, network?: string) => Effect.fail(new PostbackSecretsError({ network, problem }))

/** Parses and checks POSTBACK_SECRETS; the error names the variable and the network, never a secret. */
export const parsePostbackSecrets = (text: string): Effect.Effect<PostbackSecrets, PostbackSecretsError> =>
  Effect.gen(function* () {
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      return yield* refuse('not JSON; expected an object such as {"awin":"<secret>"}')
    }
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      return yield* refuse('expected a JSON object such as {"awin":"<secret>"}')
    }
    const secrets: Record<string, ReadonlyArray<Redacted.Redacted<string>>> = {}
    for (const [network, value] of Object.entries(json)) {
      if (!NETWORK_ID.test(network)) return yield* refuse("not a network id (a-z, 0-9, _ and -)", network)
      const list: ReadonlyArray<unknown> = Array.isArray(value) ? value : [value]
      if (list.length === 0) return yield* refuse("no secret", network)
      for (const secret of list) {
        if (typeof secret !== "string") return yield* refuse("a secret must be a string", network)
        const bytes = Buffer.byteLength(secret, "utf8")
        if (bytes < MIN_POSTBACK_SECRET_BYTES) {
          return yield* refuse(
            `a secret of ${bytes} bytes is too short: use at least ${MIN_POSTBACK_SECRET_BYTES} (e.g. openssl rand -hex 32)`,
            network
          )
        }
      }
      secrets[network] = list.map((secret) => Redacted.make(secret as string))
    }
    return secrets
  })
