/** Why the LLM's draft was not used (the answer's `fallback.reason`; CopyLlm.ts decides which). */
export const FALLBACK_REASONS = [
  "timeout",
  "unreachable",
  "http_error",
  "malformed_response",
  "invalid_output",
  "invented_numbers",
  "unsupported_claim"
] as const
