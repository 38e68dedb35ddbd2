import { leaf, type Leaf } from "./vocab-types.ts"

// Books: rows are [publisher, author, title, hardcover price]. The GTIN of a
// book is its ISBN-13 (978 prefix).
export const books: ReadonlyArray<Leaf> = [
  leaf("Books", {
    sub: "Fiction & Non-Fiction",
    gpc: "Media > Books",
    weight: 3,
    kind: "book",
    models: [
      ["Avery", "James Clear", "Atomic Habits", 27],
      ["Viking", "Matt Haig", "The Midnight Library", 26],
      ["Ballantine Books", "Andy Weir", "Project Hail Mary", 28.99],
      ["Entangled: Red Tower Books", "Rebecca Yarros", "Fourth Wing", 29.99],
      ["Doubleday", "Bonnie Garmus", "Lessons in Chemistry", 29],
      ["Mariner Books", "J.R.R. Tolkien", "The Hobbit", 14.99],
      ["Harper", "Yuval Noah Harari", "Sapiens: A Brief History of Humankind", 24.99],
      ["Simon & Schuster", "Samin Nosrat", "Salt, Fat, Acid, Heat", 37.5],
      ["Vintage", "Christopher McDougall", "Born to Run", 17],
      ["Penguin Books", "Bessel van der Kolk", "The Body Keeps the Score", 20]
    ],
    colors: [],
    features: [
      "a #1 New York Times bestseller",
      "with a new afterword",
      "over 10 million copies sold",
      "now a major motion picture"
    ],
    uses: ["book clubs", "summer reading", "long flights", "beach holidays", "bedtime reading"],
    gifts: ["book lovers", "dad", "mom", "teachers", "graduates"]
  }),
  leaf("Books", {
    sub: "Children's Books",
    gpc: "Media > Books",
    weight: 2,
    kind: "book",
    models: [
      ["Philomel Books", "Eric Carle", "The Very Hungry Caterpillar", 10.99, { a: "1-3" }],
      ["Scholastic", "J.K. Rowling", "Harry Potter and the Sorcerer's Stone", 10.99, { a: "8-12" }],
      ["Knopf Books for Young Readers", "R.J. Palacio", "Wonder", 9.99, { a: "8-12" }],
      ["Graphix", "Dav Pilkey", "Dog Man", 12.99, { a: "7-10" }],
      ["Harper", "Maurice Sendak", "Where the Wild Things Are", 19.99, { a: "4-8" }],
      ["Amulet Books", "Jeff Kinney", "Diary of a Wimpy Kid", 14.99, { a: "8-12" }]
    ],
    colors: [],
    features: [
      "a modern classic",
      "award-winning illustrations",
      "perfect for reading aloud",
      "the first book in the series"
    ],
    uses: ["bedtime stories", "reluctant readers", "classroom libraries", "summer reading lists"],
    gifts: ["kids", "grandkids", "a baby shower", "birthdays"]
  })
]
