import { createHmac, timingSafeEqual } from "node:crypto"

// Server-to-server postbacks are signed by the network with its shared secret:
//   X-Network:   the network id (networks.id), selects the secret
//   X-Timestamp: unix seconds when the request was signed
//   X-Signature: hex HMAC-SHA256(secret, `${X-Timestamp}.${raw body bytes}`)
// The timestamp is inside the MAC, so an old request cannot be re-dated, and
// requests older (or further in the future) than the window are refused.
// A replay inside the window is harmless: the ledger's upsert is idempotent.
export const REPLAY_WINDOW_SECONDS = 300

export type SignatureCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly status: 400 | 401; readonly field: string; readonly message: string }

export const sign = (secret: string, timestamp: string, body: Uint8Array | string): string =>
  createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex")

export const verifySignature = (input: {
  readonly secret: string | undefined
  readonly timestamp: string | undefined
  readonly signature: string | undefined
  readonly body: Uint8Array
  readonly nowSeconds: number
}): SignatureCheck => {
  if (input.secret === undefined) {
    return {
      ok: false,
      status: 401,
      field: "X-Network",
      message: "unknown network, or no postback secret configured for it"
    }
  }
  if (input.timestamp === undefined || input.timestamp === "") {
    return { ok: false, status: 401, field: "X-Timestamp", message: "required (unix seconds)" }
  }
  if (!/^\d{1,12}$/.test(input.timestamp))
    return { ok: false, status: 400, field: "X-Timestamp", message: "must be unix seconds" }
  if (Math.abs(input.nowSeconds - Number(input.timestamp)) > REPLAY_WINDOW_SECONDS) {
    return {
      ok: false,
      status: 401,
      field: "X-Timestamp",
      message: `outside the ${REPLAY_WINDOW_SECONDS / 60}-minute window`
    }
  }
  const given = /^[0-9a-fA-F]{64}$/.test(input.signature ?? "") ? Buffer.from(input.signature!, "hex") : undefined
  const expected = Buffer.from(sign(input.secret, input.timestamp, input.body), "hex")
  // Constant time over equal-length buffers; a malformed signature still costs one HMAC.
  if (given === undefined || !timingSafeEqual(given, expected)) {
    return {
      ok: false,
      status: 401,
      field: "X-Signature",
      message: "signature does not match (hex HMAC-SHA256 of `${X-Timestamp}.${body}`)"
    }
  }
  return { ok: true }
}
