// Where the conversion postback is served (Postback.ts) and how large a body it
// takes (the API's one body limit), apart from the route so its OpenAPI page
// (PostbackDocs.ts) loads without the ledger.
export { MAX_BODY_BYTES } from "../../bodyLimit.ts"
export const POSTBACK_PATH = "/api/v1/conversions/postback"
