import { sign } from "../../conversions/PostbackSignature.ts"
import type { Operation } from "./spec.ts"

// One fuzz request before it goes on the wire, and how it is put there: path
// and query encoded by hand (so lone surrogates and broken percent-escapes
// reach the server as bytes), the JSON body with raw pieces spliced in (1e309,
// deep nesting) that JSON.stringify cannot write, postbacks signed last.

export interface Draft {
  readonly op: Operation
  readonly pathParams: Record<string, string>
  /** Path parameters put in the path as they are (badly percent-encoded on purpose). */
  readonly rawPathParams: Record<string, string>
  /** Decoded name/value pairs, percent-encoded when sent. */
  readonly query: Array<readonly [string, string]>
  /** Pieces appended to the query string as they are (already "encoded", or badly). */
  readonly rawQuery: Array<string>
  readonly headers: Record<string, string>
  /** The JSON body as a value; strings equal to a key of `splices` are replaced by its raw JSON text. */
  readonly body: unknown
  readonly splices: Record<string, string>
  /** Replaces the body entirely (bytes or text), when set. */
  readonly rawBody: string | Uint8Array | undefined
  /** undefined: application/json when there is a body; null: no content-type header. */
  readonly contentType: string | null | undefined
  readonly credential: "valid" | "none" | string
  /** For a postback: how its signature headers are made ("valid": signed correctly, so the body reaches the handler). */
  readonly signing: "valid" | "stale" | "wrong" | "unknownNetwork" | "unsigned"
}

export interface Credentials {
  readonly partnerKey: string
  readonly adminToken: string
  readonly postbackNetwork: string
  readonly postbackSecret: string
}

export interface WireRequest {
  readonly op: Operation
  readonly mutation: string
  readonly method: string
  /** path and query, encoded */
  readonly target: string
  readonly headers: Record<string, string>
  readonly body: Uint8Array | undefined
  /** Why the document forbids this request (it must be refused with a 4xx), when it clearly does. */
  readonly breach?: string | undefined
}

const hex = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`

/** Percent-encodes UTF-16 text as UTF-8; a lone surrogate as its 3 generalized-UTF-8 bytes (what a careless client sends). */
export const percentEncode = (text: string): string => {
  let out = ""
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    const next = text.charCodeAt(i + 1)
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2))
      i++
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += hex(0xe0 | (unit >> 12)) + hex(0x80 | ((unit >> 6) & 0x3f)) + hex(0x80 | (unit & 0x3f))
    } else {
      out += encodeURIComponent(text[i]!)
    }
  }
  return out
}

const bodyText = (draft: Draft): string | Uint8Array | undefined => {
  if (draft.rawBody !== undefined) return draft.rawBody
  if (draft.body === undefined) return undefined
  let text = JSON.stringify(draft.body)
  for (const [placeholder, raw] of Object.entries(draft.splices)) {
    text = text.split(JSON.stringify(placeholder)).join(raw)
  }
  return text
}

export const toWire = (draft: Draft, mutation: string, credentials: Credentials): WireRequest => {
  const path = draft.op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    Object.hasOwn(draft.rawPathParams, name) ? draft.rawPathParams[name]! : percentEncode(draft.pathParams[name] ?? "")
  )
  const query = [
    ...draft.query.map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`),
    ...draft.rawQuery
  ].join("&")
  const content = bodyText(draft)
  const body = content === undefined ? undefined : typeof content === "string" ? Buffer.from(content) : content
  const headers: Record<string, string> = { ...draft.headers }
  if (body !== undefined && draft.contentType !== null)
    headers["content-type"] = draft.contentType ?? "application/json"
  if (draft.credential !== "none") {
    const secret =
      draft.credential !== "valid"
        ? draft.credential
        : draft.op.auth === "admin"
          ? `Bearer ${credentials.adminToken}`
          : draft.op.auth === "partner"
            ? `Bearer ${credentials.partnerKey}`
            : undefined
    if (secret !== undefined) headers["authorization"] = secret
  }
  if (draft.op.auth === "postback" && draft.signing !== "unsigned") {
    // The server checks the timestamp against its own clock: sign at send time.
    const now = Math.floor(Date.now() / 1000)
    const timestamp = String(draft.signing === "stale" ? now - 3_600 : now)
    const signature = sign(credentials.postbackSecret, timestamp, body ?? new Uint8Array())
    headers["x-network"] = draft.signing === "unknownNetwork" ? "fz-unknown-network" : credentials.postbackNetwork
    headers["x-timestamp"] = timestamp
    headers["x-signature"] =
      draft.signing === "wrong" ? signature.replace(/^./, (c) => (c === "0" ? "1" : "0")) : signature
  }
  return {
    op: draft.op,
    mutation,
    method: draft.op.method,
    target: query === "" ? path : `${path}?${query}`,
    headers,
    body
  }
}
