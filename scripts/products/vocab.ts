import { books } from "./vocab-books.ts"
import { electronics } from "./vocab-electronics.ts"
import { home } from "./vocab-home.ts"
import { lifestyle } from "./vocab-lifestyle.ts"
import type { Leaf } from "./vocab-types.ts"

/** Every leaf the product generator draws from. */
export const allLeaves: ReadonlyArray<Leaf> = [...electronics, ...home, ...lifestyle, ...books]
