/** How many distinct visitors a load spreads its requests over (X-Forwarded-For). */
export const CLIENTS = 4_096

/** The i-th visitor's address (documentation range 198.18.0.0/15, never routed). */
export const clientIp = (i: number) => `198.18.${(i % CLIENTS) >> 8}.${i % 256}`
