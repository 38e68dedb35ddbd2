/** Request bodies larger than this are refused with a 413 before they are buffered whole. */
export const MAX_BODY_BYTES = 256 * 1024
