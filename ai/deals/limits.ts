/** The longest deals list a caller may ask for (the endpoint's limit; every list is computed this long). */
export const MAX_LIMIT = 50
