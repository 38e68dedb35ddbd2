import type { Tone } from "./facts.ts"

// The template generator's phrase banks: several wordings per part and tone,
// one picked at random per request. Placeholders: {store} {product} {price}
// {ref} {pct} {brand} {category} {availability}. A phrase whose placeholder
// has no value is skipped. Wording rules: only catalog facts; the reference
// price is "the lowest price we saw before this drop" (our own observation),
// never an RRP or "original" price; no codes, shipping, stock counts,
// rankings or deadlines.

export type Bank = Record<Tone, ReadonlyArray<string>>

export const SOCIAL_DEAL: Bank = {
  casual: [
    "{product} is down to {price} at {store}, from {ref}. Nice.",
    "Spotted: {product} for {price} at {store}, {pct}% under the {ref} it was before.",
    "{product} dropped to {price} at {store}. It was {ref} not long ago."
  ],
  professional: [
    "{product} is now {price} at {store}, {pct}% below its recent price of {ref}.",
    "Price update: {product} at {store} is {price}, previously {ref}."
  ],
  enthusiastic: [
    "{product} just dropped to {price} at {store}! That's {pct}% below {ref}!",
    "Big drop: {product} for {price} at {store}, down from {ref}!",
    "Yes! {product} is {price} at {store} right now, {pct}% less than before!"
  ],
  informative: [
    "{product} at {store}: {price}, down {pct}% from the {ref} we saw before this drop.",
    "{store} now lists {product} at {price}. The lowest price we saw before this drop: {ref}."
  ]
}

export const SOCIAL_PRODUCT: Bank = {
  casual: [
    "Been eyeing {product}? It's {price} at {store}.",
    "{product} for {price} at {store}. Worth a look.",
    "Found this at {store}: {product}, {price}."
  ],
  professional: ["{product} is listed at {store} for {price}.", "{store} offers {product} at {price}."],
  enthusiastic: [
    "Love this: {product}, {price} at {store}!",
    "{product} at {store} for {price}. Such a good pick!",
    "Check out {product} at {store}, just {price}!"
  ],
  informative: ["{product} costs {price} at {store} at the moment.", "Current price at {store}: {product}, {price}."]
}

export const SOCIAL_STORE: Bank = {
  casual: [
    "Shopping for {category}? Have a look around {store}.",
    "Need something new? {store} is worth a browse.",
    "Had a look at {store} lately? Worth a browse."
  ],
  professional: ["Discover the range at {store}.", "{store}: browse the current {category} range online."],
  enthusiastic: ["Treat yourself: {store} is calling!", "Time for a browse at {store}! So much {category} to explore!"],
  informative: [
    "{store} sells {category} online; see the current range and prices on its site.",
    "Browse {store} for its current range and prices."
  ]
}

export const CALL_TO_ACTION: Bank = {
  casual: ["Take a look", "Check it out", "Have a look"],
  professional: ["See the details", "Learn more", "Visit {store}"],
  enthusiastic: ["Shop now", "Go take a look", "Start shopping"],
  informative: ["See details", "Check current prices", "Read more at {store}"]
}

export const EMAIL_SUBJECT_DEAL: Bank = {
  casual: ["{product} just got cheaper", "{product}, now {price}"],
  professional: ["{store}: {product} now {price}", "Price update on {product}"],
  enthusiastic: ["{pct}% below its recent price: {product}!", "{product} for {price}!"],
  informative: ["{product}: {price}, down from {ref}", "Price drop at {store}: {product}"]
}

export const EMAIL_SUBJECT_PRODUCT: Bank = {
  casual: ["Something from {store} you might like", "Have you seen {product}?"],
  professional: ["Selected products from {store}", "{product} at {store}"],
  enthusiastic: ["You'll love these picks from {store}!", "Don't scroll past {product}!"],
  informative: ["{store}: current prices", "What {product} costs at {store}"]
}

export const EMAIL_SUBJECT_STORE: Bank = {
  casual: ["Ever tried {store}?", "A store worth knowing: {store}"],
  professional: ["Introducing {store}", "{store}: an introduction"],
  enthusiastic: ["Say hello to {store}!", "Meet {store}!"],
  informative: ["About {store}: what it sells", "{store} at a glance"]
}

export const EMAIL_PREHEADER_DEAL: Bank = {
  casual: ["Down from {ref} to {price} at {store}.", "It was {ref} before. Now it's {price}."],
  professional: ["{pct}% below the price we saw before this drop.", "Now {price} at {store}, previously {ref}."],
  enthusiastic: ["From {ref} down to {price}!", "That's {pct}% less than before!"],
  informative: [
    "Current price {price}; lowest price before this drop {ref}.",
    "A {pct}% drop against our own price history."
  ]
}

export const EMAIL_PREHEADER_OTHER: Bank = {
  casual: ["A few things from {store} worth a look.", "Quick picks from {store}."],
  professional: ["A short selection from {store}.", "Products and prices from {store}."],
  enthusiastic: ["Fresh picks from {store}!", "Time to treat yourself at {store}!"],
  informative: ["Prices as we last checked them at {store}.", "What {store} offers, in short."]
}

export const GREETING: Bank = {
  casual: ["Hi there,", "Hey,", "Hi,"],
  professional: ["Hello,", "Good day,"],
  enthusiastic: ["Hey!", "Hi there!"],
  informative: ["Hello,", "Hi,"]
}

export const INTRO_DEAL: Bank = {
  casual: [
    "Quick one: {store} has dropped the price on {product}.",
    "Heads up, {product} is cheaper at {store} right now."
  ],
  professional: [
    "We noticed a price change at {store} that may interest you.",
    "{store} has lowered the price of {product}."
  ],
  enthusiastic: [
    "Great news: prices just dropped at {store}!",
    "You're going to like this: {store} just cut the price of {product}!"
  ],
  informative: [
    "Here is a price update from {store}, based on the prices we track.",
    "We track prices at {store}, and {product} has just dropped."
  ]
}

export const INTRO_PRODUCT: Bank = {
  casual: ["Thought you might like a few picks from {store}.", "Here's something from {store} that caught our eye."],
  professional: ["Here is a short selection from {store}.", "Please find a few products from {store} below."],
  enthusiastic: ["We've found some great picks at {store}!", "{store} has some lovely things right now!"],
  informative: [
    "Here are current prices for a few products at {store}.",
    "Below are products from {store} with the prices we last saw."
  ]
}

export const INTRO_STORE: Bank = {
  casual: ["If you haven't shopped at {store} yet, it's worth a look.", "Ever shopped at {store}? Worth a browse."],
  professional: ["We'd like to introduce {store}, an online store for {category}.", "We'd like to introduce {store}."],
  enthusiastic: ["Meet {store}, a fun place to shop for {category}!", "Say hello to {store}: have a browse!"],
  informative: [
    "{store} is an online store for {category}.",
    "{store} is an online store; its website lists the full range and current prices."
  ]
}

export const CLOSING: Bank = {
  casual: ["Prices move around, so have a look while it suits you.", "That's it for now. Enjoy!"],
  professional: ["Prices and availability are as listed when we checked.", "Thank you for reading."],
  enthusiastic: ["Happy shopping!", "Enjoy your shopping!"],
  informative: [
    "Prices were correct when we checked and may change.",
    "Check the store for the current price before you buy."
  ]
}

export const PRODUCT_LINE_DEAL: Bank = {
  casual: ["{product}: {price}, down from {ref}", "{product} for {price} (was {ref} before this drop)"],
  professional: ["{product}: {price}, previously {ref} ({pct}% less)", "{product}: now {price}, reference {ref}"],
  enthusiastic: ["{product}: only {price}, down from {ref}!", "{product}: {price}, that's {pct}% less!"],
  informative: [
    "{product}: {price}; lowest price before this drop {ref} (-{pct}%)",
    "{product}: {price}, {pct}% below {ref}"
  ]
}

export const PRODUCT_LINE: Bank = {
  casual: ["{product}: {price}", "{product} for {price}"],
  professional: ["{product}: {price}"],
  enthusiastic: ["{product}: {price}!", "{product}, just {price}"],
  informative: ["{product}: {price} ({availability})", "{product}: {price}"]
}

export const BLOG_TITLE_DEAL: Bank = {
  casual: ["{product} is cheaper at {store} right now", "Price drop: {product} at {store}"],
  professional: ["{store}: price update on {product}", "{product} now {price} at {store}"],
  enthusiastic: ["{product} just dropped to {price}!", "Don't miss this price drop at {store}!"],
  informative: ["{product} at {store}: price history and current price", "What {product} costs at {store} now"]
}

export const BLOG_TITLE_PRODUCT: Bank = {
  casual: ["What's worth a look at {store}", "A few picks from {store}"],
  professional: ["{store}: selected products and prices", "Shopping at {store}: an overview"],
  enthusiastic: ["Our favourite finds at {store}!", "Why we love shopping at {store}!"],
  informative: ["{store}: current prices of selected products", "What things cost at {store}"]
}

export const BLOG_TITLE_STORE: Bank = {
  casual: ["Have you tried {store}?", "A quick look at {store}"],
  professional: ["{store}: a short introduction", "Introducing {store}"],
  enthusiastic: ["Say hello to {store}!", "Time to discover {store}!"],
  informative: ["A guide to shopping at {store}", "{store}: what to know before you shop"]
}

export const BLOG_CLOSING: Bank = {
  casual: ["That's our quick tour. Happy browsing!", "Have a look and see what suits you."],
  professional: ["We hope this overview helps you decide.", "Thank you for reading."],
  enthusiastic: ["Happy shopping, everyone!", "Go and have fun exploring!"],
  informative: ["We update these figures as our catalog changes.", "That covers what our catalog shows for this store."]
}

export const BLOG_PRODUCT_DEAL: Bank = {
  casual: [
    "{product}{byBrand} is down to {price}. Before this drop, the lowest price we saw was {ref}, so that's {pct}% less.",
    "Right now {product}{byBrand} costs {price}, down from {ref}."
  ],
  professional: [
    "{product}{byBrand} is currently priced at {price}, {pct}% below {ref}, the lowest price we observed before this change.",
    "The price of {product}{byBrand} has fallen to {price} from {ref}."
  ],
  enthusiastic: [
    "{product}{byBrand} is now just {price}! That's {pct}% below the {ref} it cost before!",
    "Good news for fans of {product}{byBrand}: it's down to {price} from {ref}!"
  ],
  informative: [
    "{product}{byBrand} costs {price}. The lowest price we recorded before this drop was {ref}, a difference of {pct}%.",
    "Our price history for {product}{byBrand} shows {ref} before the current price of {price} ({pct}% lower)."
  ]
}

export const BLOG_PRODUCT: Bank = {
  casual: ["{product}{byBrand} is {price}.", "You'll find {product}{byBrand} there for {price}."],
  professional: ["{product}{byBrand} is listed at {price}.", "{store} offers {product}{byBrand} at {price}."],
  enthusiastic: ["{product}{byBrand} is a lovely pick at {price}!", "We like {product}{byBrand}, listed at {price}!"],
  informative: [
    "{product}{byBrand} is listed at {price} and was {availability} when we checked.",
    "{product}{byBrand}: {price}, {availability} at our last check."
  ]
}

export const BLOG_STORE_BODY: Bank = {
  casual: [
    "{store} keeps things simple: browse the {category} range, compare a few options and pick what suits you.",
    "There's a decent range to browse at {store}, so take your time and compare."
  ],
  professional: [
    "{store} focuses on {category}. The website lists the current range with prices, so you can compare before you decide.",
    "The {store} website lists its current range with prices, which makes comparing options straightforward."
  ],
  enthusiastic: [
    "There's so much {category} to explore at {store}! Browsing is half the fun.",
    "Browsing {store} is a treat: there's plenty to discover!"
  ],
  informative: [
    "{store} sells {category} online. Its website shows the current range, prices and availability.",
    "{store}'s website shows the current range, prices and availability; those are the figures to rely on."
  ]
}

export const BLOG_ADVICE: Bank = {
  casual: [
    "One tip: check the final price at checkout and the delivery cost to your address, since prices and stock change.",
    "Before you buy, have a quick look at delivery costs and the returns policy. Prices can change, too."
  ],
  professional: [
    "Before purchasing, please confirm the price at checkout, delivery costs and the return policy on the store's website.",
    "We recommend confirming the final price, delivery terms and return policy at checkout."
  ],
  enthusiastic: [
    "Quick tip before you hit buy: check the price at checkout and the delivery options. Prices move fast!",
    "Just remember to double-check delivery and returns before you buy!"
  ],
  informative: [
    "Prices and stock change often. We report what we saw at our last check; confirm the price, delivery costs and the return policy at checkout.",
    "A note on prices: they are the ones we last observed, not a promise. Check the store for the current price, delivery costs and returns."
  ]
}

export const BLOG_INTRO: Bank = {
  casual: [
    "Looking for something from {store}? Here's what caught our eye.",
    "We've been browsing {store} again, and a few things stood out."
  ],
  professional: [
    "This section looks at {store} and a few of its current products.",
    "Here is an overview of {store} and selected products with their current prices."
  ],
  enthusiastic: ["We're big fans of {store}, and here's why you might be too!", "It's time to talk about {store}!"],
  informative: [
    "This overview covers {store}, with prices taken from our own catalog.",
    "Here is what we know about {store} from the prices we track."
  ]
}

export const BLOG_INTRO_STORE: Bank = {
  casual: ["Thinking of shopping at {store}? Here's a quick look.", "Let's take a quick look at {store}."],
  professional: ["This section introduces {store}.", "Here is a brief introduction to {store}."],
  enthusiastic: ["Let's talk about {store}!", "Say hello to {store}!"],
  informative: ["This overview introduces {store}.", "Here is a short introduction to {store} and how to shop there."]
}

export const DEAL_ALERT: Bank = {
  casual: [
    "Deal alert: {product} is down to {price} at {store}.\nIt was {ref} before this drop, so {pct}% less now.",
    "Deal alert: {product} for {price} at {store}, down from {ref}."
  ],
  professional: [
    "Deal alert: {product} at {store} is now {price}.\nThat is {pct}% below its reference price of {ref}.",
    "Deal alert: {store} has lowered {product} to {price} (reference price {ref}, -{pct}%)."
  ],
  enthusiastic: [
    "Deal alert! {product} just hit {price} at {store}!\nDown {pct}% from {ref}!",
    "Deal alert! {product} is only {price} at {store}, down from {ref}!"
  ],
  informative: [
    "Deal alert: {product}, {price} at {store}.\nReference price: {ref}, the lowest we saw before this drop; saving {pct}%.",
    "Deal alert: {product} costs {price} at {store}.\nThe lowest price we observed before this drop was {ref}; today's price is {pct}% lower."
  ]
}
