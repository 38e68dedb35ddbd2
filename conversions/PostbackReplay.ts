import { Data, Effect, Schema } from "effect"
import { Text } from "../infra/columns.ts"
import type { DatabaseError, Tx } from "../infra/Database.ts"

// A signed postback is accepted once. Its (network, signature) is claimed in
// the transaction that stores its conversions: rolled back with them when the
// write fails (the network's retry of the same bytes then goes through), and
// on PostgreSQL the primary key makes a second replica's claim of the same
// signature wait for the first and then conflict. A signature is remembered
// until its X-Timestamp leaves the window: after that the window refuses it.

/** The signature of one verified postback, and when its timestamp leaves the replay window. */
export interface SignatureClaim {
  readonly network: string
  /** Hex HMAC-SHA256 as sent; compared in lower case, so a re-cased copy is the same request. */
  readonly signature: string
  readonly expiresAt: Date
}

export class PostbackReplayed extends Data.TaggedError("PostbackReplayed")<{ readonly network: string }> {
  override get message() {
    return `this signed postback of network ${this.network} was already accepted`
  }
}

const Claimed = Schema.Struct({ network_id: Text })

/** Forgets signatures whose window has passed, then claims this one, or fails with PostbackReplayed. */
export const claimSignature = (
  tx: Tx,
  claim: SignatureClaim,
  now: Date
): Effect.Effect<void, DatabaseError | PostbackReplayed> =>
  Effect.gen(function* () {
    yield* tx.run("DELETE FROM postback_signatures WHERE expires_at < $1::TIMESTAMPTZ", [now.toISOString()])
    const claimed = yield* tx.queryAs(
      Claimed,
      `INSERT INTO postback_signatures (network_id, signature, expires_at) VALUES ($1, $2, $3::TIMESTAMPTZ)
       ON CONFLICT (network_id, signature) DO NOTHING RETURNING network_id`,
      [claim.network, claim.signature.toLowerCase(), claim.expiresAt.toISOString()]
    )
    if (claimed.length === 0) return yield* new PostbackReplayed({ network: claim.network })
  })
