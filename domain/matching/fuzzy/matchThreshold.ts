// Apart from the scoring (which loads the public-suffix list) so the API
// contract can state the threshold cheaply.

/** At or above this confidence a fuzzy candidate is matched; below it the answer is matched: false. */
export const MATCH_THRESHOLD = 0.7
