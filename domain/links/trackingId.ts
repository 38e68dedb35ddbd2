import { randomBytes } from "node:crypto"

// Stored tracking ids: 12 characters of [A-Za-z0-9] (~71 bits), short enough
// for a network's sub-id field (Skimlinks allows 50, AvantLink 64) and never
// starting with "f." like the derived ids of the discovery feed.
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
export const TRACKING_ID_LENGTH = 12
export const STORED_TRACKING_ID = /^[A-Za-z0-9]{12}$/

export const newTrackingId = (): string => {
  // Bytes >= 248 (4 * 62) are skipped so every character is equally likely.
  let out = ""
  while (out.length < TRACKING_ID_LENGTH) {
    for (const byte of randomBytes(16)) {
      if (byte < 248 && out.length < TRACKING_ID_LENGTH) out += ALPHABET[byte % 62]
    }
  }
  return out
}
