import { createHmac, timingSafeEqual } from "node:crypto"

// Server-to-server postbacks are signed by the network with its shared secret:
//   X-Network:   the network id (networks.id), selects the secret
//   X-Timestamp: unix seconds when the request was signed
//   X-Signature: hex HMAC-SHA256(secret, `${X-Timestamp}.${raw body bytes}`)
// The timestamp is inside the MAC, so an old request cannot be re-dated, and
// requests older (or further in the future) than the window are refused.
// A replay inside the window is refused too (PostbackReplay.ts): the ledger
// remembers every accepted signature until its timestamp leaves the window.
export const REPLAY_WINDOW_SECONDS = 300

export type SignatureCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly status: 400 | 401; readonly field: string; readonly message: string }

export const sign = (secret: string, timestamp: string, body: Uint8Array | string): string =>
  createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex")

export const verifySignature = (input: {
  /** The network's secrets, any of which verifies (two while one is rotated); undefined: unknown network. */
  readonly secrets: ReadonlyArray<string> | undefined
  readonly timestamp: string | undefined
  readonly signature: string | undefined
  readonly body: Uint8Array
  readonly nowSeconds: number
}): SignatureCheck => {
  if (input.secrets === undefined || input.secrets.length === 0) {
    return {
      ok: false,
      status: 401,
      field: "X-Network",
      // Names the variable: the operator who sees this 401 has to set it on the server.
      message:
        "unknown network, or no postback secret configured for it: POSTBACK_SECRETS on the server needs an entry for this X-Network"
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
  // Constant time over equal-length buffers; every secret is tried (no early
  // exit), and a malformed signature still costs the HMACs.
  let matches = false
  for (const secret of input.secrets) {
    const expected = Buffer.from(sign(secret, input.timestamp, input.body), "hex")
    if (given !== undefined && timingSafeEqual(given, expected)) matches = true
  }
  if (!matches) {
    return {
      ok: false,
      status: 401,
      field: "X-Signature",
      message: "signature does not match (hex HMAC-SHA256 of `${X-Timestamp}.${body}`)"
    }
  }
  return { ok: true }
}
