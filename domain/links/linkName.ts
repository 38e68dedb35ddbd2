/** The longest name a partner may give one of its links (API, dashboard and store agree on it). */
export const MAX_LINK_NAME_LENGTH = 100
