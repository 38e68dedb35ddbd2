// Filler: words that frame a request but name no product ("i need",
// "looking for", "please"). The one list of them, applied to the query only:
// the index keeps every word, so a title that contains "something" is still
// found by its other words. Guidance lists what was ignored.

/** Phrases removed before single words, so "for the money" goes as a whole. */
const PHRASES = [
  "for the money",
  "can you find",
  "can you recommend",
  "can you suggest",
  "could you find",
  "show me",
  "looking for",
  "i am looking",
  "i'm looking",
  "im looking",
  "i need",
  "i want",
  "i would like",
  "i'd like",
  "would like",
  "help me find",
  "a good",
  "a nice",
  "a great",
  "something like",
  "something for",
  "any good",
  "what is",
  "what are",
  "do you have",
  "is there",
  "are there"
]

const WORDS = new Set([
  "a",
  "an",
  "the",
  "for",
  "my",
  "me",
  "i",
  "im",
  "i'm",
  "need",
  "needs",
  "want",
  "wants",
  "looking",
  "find",
  "show",
  "some",
  "something",
  "good",
  "great",
  "nice",
  "new",
  "buy",
  "to",
  "who",
  "that",
  "is",
  "are",
  "of",
  "on",
  "please",
  "pls",
  "plz",
  "gift",
  "gifts",
  "present",
  "presents",
  "idea",
  "ideas",
  "recommend",
  "recommendation",
  "recommendations",
  "any",
  "get",
  "what",
  "whats",
  "what's",
  "can",
  "you",
  "suggest",
  "with",
  "price",
  "priced",
  "costing",
  "cost",
  "in",
  "under",
  "year",
  "old",
  "and",
  "or",
  "our",
  "his",
  "her",
  "their",
  "likes",
  "like",
  "loves",
  "into",
  "s",
  "thanks",
  "thank",
  "help",
  "would",
  "could",
  "should",
  "really",
  "very",
  "just",
  "one",
  "ones",
  "stuff",
  "thing",
  "things",
  "item",
  "items",
  "product",
  "products",
  "online",
  "today",
  "now",
  "there",
  "have",
  "has",
  "it",
  "do",
  "does",
  "money",
  "decent"
])

const PHRASE_PATTERNS = PHRASES.map((phrase) => new RegExp(`(?<![\\p{L}\\p{N}'])${phrase}(?![\\p{L}\\p{N}'])`, "gu"))

export interface StopWordParse {
  /** What was dropped, in the order typed. */
  readonly ignored: ReadonlyArray<string>
  readonly rest: string
}

/** Drops filler phrases from a lower-case phrase (single words are dropped by `isStopWord` later). */
export const dropFillerPhrases = (input: string): StopWordParse => {
  let text = input
  const ignored: Array<{ at: number; words: string }> = []
  for (const pattern of PHRASE_PATTERNS) {
    text = text.replace(pattern, (match, at: number) => {
      ignored.push({ at, words: match })
      return " ".repeat(match.length)
    })
  }
  return {
    ignored: ignored.sort((a, b) => a.at - b.at).map(({ words }) => words),
    rest: text.replace(/\s+/g, " ").trim()
  }
}

export const isStopWord = (word: string) => WORDS.has(word)
