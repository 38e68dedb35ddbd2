// String similarity for merchant names and domain labels. Pure and small:
// the strings compared are domain labels and brand keys (a few to ~30 chars).

/**
 * Optimal-string-alignment Damerau-Levenshtein distance: insertions,
 * deletions, substitutions and transpositions of neighbours each cost 1
 * ("amzaon" is one edit from "amazon", not two).
 */
export const damerauLevenshtein = (a: string, b: string): number => {
  if (a === b) return 0
  if (a.length === 0) return b.length
  if (b.length === 0) return a.length
  const rows = a.length + 1
  const cols = b.length + 1
  const d = new Array<number>(rows * cols)
  for (let i = 0; i < rows; i++) d[i * cols] = i
  for (let j = 0; j < cols; j++) d[j] = j
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(d[(i - 1) * cols + j] + 1, d[i * cols + j - 1] + 1, d[(i - 1) * cols + j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[(i - 2) * cols + j - 2] + 1)
      d[i * cols + j] = best
    }
  }
  return d[rows * cols - 1]
}

/** Jaro-Winkler similarity in 0..1; rewards a shared prefix, where typos are rarest. */
export const jaroWinkler = (a: string, b: string): number => {
  if (a === b) return 1
  if (a.length === 0 || b.length === 0) return 0
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1)
  const aMatched = new Array<boolean>(a.length).fill(false)
  const bMatched = new Array<boolean>(b.length).fill(false)
  let matches = 0
  for (let i = 0; i < a.length; i++) {
    const from = Math.max(0, i - window)
    const to = Math.min(b.length - 1, i + window)
    for (let j = from; j <= to; j++) {
      if (bMatched[j] || a[i] !== b[j]) continue
      aMatched[i] = bMatched[j] = true
      matches++
      break
    }
  }
  if (matches === 0) return 0
  let transposed = 0
  for (let i = 0, j = 0; i < a.length; i++) {
    if (!aMatched[i]) continue
    while (!bMatched[j]) j++
    if (a[i] !== b[j]) transposed++
    j++
  }
  const jaro = (matches / a.length + matches / b.length + (matches - transposed / 2) / matches) / 3
  let prefix = 0
  while (prefix < 4 && prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++
  return jaro + prefix * 0.1 * (1 - jaro)
}

// QWERTY neighbours: a substituted letter next to the intended one is a slip
// of the finger; a far one (nike -> nice) is usually a different word.
const KEYBOARD_ROWS = ["1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm"]
const keyPosition = new Map<string, readonly [number, number]>()
KEYBOARD_ROWS.forEach((row, r) => [...row].forEach((key, c) => keyPosition.set(key, [r, c + r * 0.5])))

export const adjacentKeys = (x: string, y: string): boolean => {
  const a = keyPosition.get(x)
  const b = keyPosition.get(y)
  if (a === undefined || b === undefined) return false
  return Math.abs(a[0] - b[0]) <= 1 && Math.abs(a[1] - b[1]) <= 1 && x !== y
}

/**
 * What kind of slip turns `intended` into `typed`, when it is one edit:
 * - doubled_letter: a letter typed twice (nikee, bestbuyy)
 * - repeated_dropped: one of a double letter missing (gogle)
 * - transposition: two neighbours swapped (amzaon)
 * - missing_letter: a letter left out (amazn)
 * - extra_letter: a letter added that is not a repeat (amazoni)
 * - adjacent_key: a letter replaced by its keyboard neighbour (nikw)
 * - substitution: a letter replaced by a far one (nice for nike)
 * Two or more edits: "distant".
 */
export type EditKind =
  | "exact"
  | "doubled_letter"
  | "repeated_dropped"
  | "transposition"
  | "missing_letter"
  | "extra_letter"
  | "adjacent_key"
  | "substitution"
  | "distant"

const removeAt = (s: string, i: number) => s.slice(0, i) + s.slice(i + 1)

/** An extra letter in `longer` that `shorter` lacks: is it a doubled neighbour? */
const insertionKind = (longer: string, shorter: string): EditKind | undefined => {
  for (let i = 0; i < longer.length; i++) {
    if (removeAt(longer, i) !== shorter) continue
    if (longer[i] === longer[i - 1] || longer[i] === longer[i + 1]) return "doubled_letter"
    return "extra_letter"
  }
  return undefined
}

export const editKind = (typed: string, intended: string): EditKind => {
  if (typed === intended) return "exact"
  if (typed.length === intended.length + 1) {
    return insertionKind(typed, intended) ?? "distant"
  }
  if (typed.length + 1 === intended.length) {
    const kind = insertionKind(intended, typed)
    if (kind === undefined) return "distant"
    return kind === "doubled_letter" ? "repeated_dropped" : "missing_letter"
  }
  if (typed.length !== intended.length) return "distant"
  const diffs: Array<number> = []
  for (let i = 0; i < typed.length; i++) if (typed[i] !== intended[i]) diffs.push(i)
  if (diffs.length === 1) return adjacentKeys(typed[diffs[0]], intended[diffs[0]]) ? "adjacent_key" : "substitution"
  if (
    diffs.length === 2 &&
    diffs[1] === diffs[0] + 1 &&
    typed[diffs[0]] === intended[diffs[1]] &&
    typed[diffs[1]] === intended[diffs[0]]
  ) {
    return "transposition"
  }
  return "distant"
}
