// Where the conversion postback is served (Postback.ts) and how large a body it
// takes, apart from the route so its OpenAPI page (PostbackDocs.ts) loads
// without the ledger.
export const POSTBACK_PATH = "/api/v1/conversions/postback"
export const MAX_BODY_BYTES = 256 * 1024
