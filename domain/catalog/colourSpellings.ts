// One spelling per colour, so the model key (documents.ts) groups offers
// whatever spelling a store uses: "Grey" and "Gray" are one variant group,
// as are "Navy Blue" and "Navy". Deliberately small and exact (a pure rule):
// only spellings of the SAME colour, never near shades ("Charcoal" is not
// "Grey", "Sky Blue" is not "Blue"). Words are lower-case.

/** Word -> canonical word: British "grey"; "color" (stores mix "Colour: Grey" and "Color: Gray"); a frequent misspelling. */
export const COLOUR_SPELLINGS: Readonly<Record<string, string>> = {
  gray: "grey",
  colour: "color",
  colours: "colors",
  fuschia: "fuchsia"
}

/** Several words naming one colour -> its short name (matched after the spellings above). */
export const COLOUR_PHRASES: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [[["navy", "blue"], "navy"]]

/** Words with every colour spelling and phrase in its canonical form. */
export const canonicalColours = (words: ReadonlyArray<string>): Array<string> => {
  const spelled = words.map((word) => COLOUR_SPELLINGS[word] ?? word)
  const out: Array<string> = []
  for (let i = 0; i < spelled.length;) {
    const phrase = COLOUR_PHRASES.find(([from]) => from.every((word, k) => spelled[i + k] === word))
    out.push(phrase === undefined ? spelled[i] : phrase[1])
    i += phrase === undefined ? 1 : phrase[0].length
  }
  return out
}
