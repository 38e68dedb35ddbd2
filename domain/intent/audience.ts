// Who a gift is for and why: recipients, ages, occasions and interests.
// These words describe the shopper's situation, not the product, so they
// leave the search query; interests ("who likes coffee", "into hiking") stay
// in it, because they are the product words.

export type PersonGender = "male" | "female"

export interface Audience {
  readonly recipient?: string
  /**
   * Whose products: from the recipient ("dad", "my wife", "for a boy") or
   * from a gender-named product ("women's jacket", "running shoes men").
   */
  readonly gender?: PersonGender
  /** True when the gender came from the product's own words ("women's X"), not from a recipient. */
  readonly genderOfProduct?: boolean
  readonly age?: number
  readonly occasion?: string
  readonly interests: ReadonlyArray<string>
}

const RECIPIENTS: ReadonlyArray<readonly [string, RegExp]> = [
  ["mom", /\b(?:mom|mommy|mum|mummy|mother|moms|mums)\b/],
  ["dad", /\b(?:dad|daddy|father|papa|dads)\b/],
  ["wife", /\bwife\b/],
  ["husband", /\bhusband\b/],
  ["girlfriend", /\bgirlfriend\b/],
  ["boyfriend", /\bboyfriend\b/],
  ["grandparent", /\b(?:grandma|grandmother|granny|grandpa|grandfather|grandparents?)\b/],
  ["teen", /\b(?:teens?|teenagers?|teenage)\b/],
  ["baby", /\b(?:baby|babies|newborn|infant|toddlers?)\b/],
  ["kid", /\b(?:kids?|child|children|son|daughter|boys?|girls?|nephew|niece)\b/],
  ["friend", /\b(?:friends?|bff|coworkers?|colleagues?|boss)\b/],
  ["him", /\b(?:him|guys?)\b/],
  ["her", /\bher\b/]
]

const RECIPIENT_GENDER: Record<string, PersonGender> = {
  mom: "female",
  wife: "female",
  girlfriend: "female",
  her: "female",
  dad: "male",
  husband: "male",
  boyfriend: "male",
  him: "male"
}
// Children named by gender: the recipient stays "kid", the gender is theirs.
const GIRL = /\b(?:daughters?|girls?|nieces?|granddaughters?)\b/
const BOY = /\b(?:sons?|boys?|nephews?|grandsons?)\b/

// A product named for women or men ("women's running shoes", "winter jacket
// women"): a filter on the product, never a guess at a gift recipient.
const FEMALE_PRODUCT = /(?<![\p{L}])(?:women'?s?|womens|woman'?s?|ladies'?|lady'?s?|female)(?![\p{L}'])/gu
const MALE_PRODUCT = /(?<![\p{L}])(?:men'?s?|mens|man'?s?|male)(?![\p{L}'])/gu

const OCCASIONS: ReadonlyArray<readonly [string, RegExp]> = [
  ["Mother's Day", /\bmother'?s'? day\b/],
  ["Father's Day", /\bfather'?s'? day\b/],
  ["Valentine's Day", /\bvalentine'?s?(?: day)?\b/],
  ["birthday", /\b(?:birthday|bday|b-day)\b/],
  ["Christmas", /\b(?:christmas|xmas|x-mas|stocking stuffers?)\b/],
  ["anniversary", /\banniversary\b/],
  ["graduation", /\bgraduation\b/],
  ["wedding", /\bwedding\b/],
  ["housewarming", /\bhousewarming\b/],
  ["holidays", /\bholidays?\b/],
  ["Secret Santa", /\bsecret santa\b/]
]

const AGE = /\b(?:(\d{1,2})\s*(?:-|\s)?\s*(?:years?|yrs?|yr)\s*(?:-|\s)?\s*olds?|(\d{1,2})\s*yo\b|aged?\s+(\d{1,2})\b)/
// "who likes coffee", "who loves hiking and camping", "into gardening", "fan of star wars".
const INTEREST =
  /\b(?:who|that|which)\s+(?:likes?|loves?|enjoys?|is into|are into|is interested in|collects?|plays?)\s+(.+?)(?=$|[,.;!?]|\b(?:under|below|over|above|between|for|and costs?|with a budget)\b)|\b(?:into|fan of|fans of|lover of|lovers of|obsessed with|interested in)\s+(.+?)(?=$|[,.;!?]|\b(?:under|below|over|above|between|for)\b)|\bfor\s+(\w+)\s+(?:lovers?|fans?|enthusiasts?|nerds?|geeks?)\b/

const strip = (text: string, pattern: RegExp) => text.replace(pattern, " ").replace(/\s+/g, " ").trim()

export interface AudienceParse {
  readonly audience: Audience
  readonly rest: string
}

export const parseAudience = (input: string): AudienceParse => {
  let text = ` ${input.toLowerCase()} `
  const interests: Array<string> = []
  const interest = INTEREST.exec(text)
  if (interest !== null) {
    const words = (interest[1] ?? interest[2] ?? interest[3] ?? "").trim()
    if (words.length > 0) interests.push(...words.split(/\s*(?:,|\band\b|&)\s*/).filter((w) => w.length > 0))
    // Keep the interest words in the phrase: they are what to search for.
    text = `${text.slice(0, interest.index)} ${words} ${text.slice(interest.index + interest[0].length)}`
  }

  let age: number | undefined
  const ageMatch = AGE.exec(text)
  if (ageMatch !== null) {
    age = Number(ageMatch[1] ?? ageMatch[2] ?? ageMatch[3])
    text = strip(text, AGE)
  }

  let occasion: string | undefined
  for (const [name, pattern] of OCCASIONS) {
    if (pattern.test(text)) {
      occasion ??= name
      text = strip(text, new RegExp(pattern.source, "g"))
    }
  }

  let gender: PersonGender | undefined
  let genderOfProduct = false
  for (const [named, pattern] of [
    ["female", FEMALE_PRODUCT],
    ["male", MALE_PRODUCT]
  ] as const) {
    if (new RegExp(pattern.source, "u").test(text)) {
      gender ??= named
      genderOfProduct = true
      text = strip(text, pattern)
    }
  }

  const girl = GIRL.test(text)
  const boy = BOY.test(text)
  let recipient: string | undefined
  for (const [name, pattern] of RECIPIENTS) {
    if (pattern.test(text)) {
      recipient ??= name
      text = strip(text, new RegExp(pattern.source, "g"))
    }
  }
  if (recipient === undefined && age !== undefined)
    recipient = age < 2 ? "baby" : age < 13 ? "kid" : age < 20 ? "teen" : undefined
  if (recipient === "kid" && age !== undefined && age >= 13 && age < 20) recipient = "teen"
  // The person the gift is for decides; a product's own gender word only when no recipient names one.
  const personGender =
    (recipient !== undefined ? RECIPIENT_GENDER[recipient] : undefined) ??
    (girl !== boy ? (girl ? "female" : "male") : undefined)
  if (personGender !== undefined && (gender === undefined || !genderOfProduct || personGender === gender)) {
    genderOfProduct = gender !== undefined && genderOfProduct && personGender === gender
    gender = personGender
  }

  return {
    audience: {
      ...(recipient ? { recipient } : {}),
      ...(gender ? { gender, ...(genderOfProduct ? { genderOfProduct } : {}) } : {}),
      ...(age !== undefined ? { age } : {}),
      ...(occasion ? { occasion } : {}),
      interests
    },
    rest: text.replace(/\s+/g, " ").trim()
  }
}

const PHRASES: Record<string, string> = {
  mom: "mom",
  dad: "dad",
  wife: "a wife",
  husband: "a husband",
  girlfriend: "a girlfriend",
  boyfriend: "a boyfriend",
  grandparent: "a grandparent",
  teen: "a teen",
  baby: "a baby",
  kid: "a kid",
  friend: "a friend",
  him: "him",
  her: "her"
}

export const describeAudience = (audience: Audience): string | undefined => {
  const parts: Array<string> = []
  if (audience.recipient) {
    parts.push(
      audience.age !== undefined
        ? `a gift for a ${audience.age}-year-old (${audience.recipient})`
        : `a gift for ${PHRASES[audience.recipient] ?? audience.recipient}`
    )
  } else if (audience.age !== undefined) parts.push(`a gift for a ${audience.age}-year-old`)
  else if (audience.gender !== undefined)
    parts.push(audience.gender === "male" ? "products for men" : "products for women")
  if (audience.occasion) parts.push(`occasion: ${audience.occasion}`)
  if (audience.interests.length > 0) parts.push(`interests: ${audience.interests.join(", ")}`)
  return parts.length === 0 ? undefined : parts.join("; ")
}
