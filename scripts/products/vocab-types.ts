import type { Category } from "../catalog/categories.ts"

/**
 * [brand, model code, product name, list price in USD, options]. `{v}` in the
 * model code or name is replaced by the chosen variant's label. Books use
 * [publisher, author, title, price].
 */
export type ModelRow = readonly [string, string, string, number, ModelOptions?]

export interface ModelOptions {
  /** Variants: [label, price delta in USD]. */
  readonly v?: ReadonlyArray<readonly [string, number]>
  /** Age range shown in the description, e.g. "8+" or "8-12". */
  readonly a?: string
}

export interface Leaf {
  /** Merchant path, becomes product_type; its first segment is the category. */
  readonly path: string
  readonly category: Category
  /** Google product taxonomy path. */
  readonly gpc: string
  readonly models: ReadonlyArray<ModelRow>
  readonly colors: ReadonlyArray<string>
  readonly features: ReadonlyArray<string>
  /** Use cases that intent search should find ("running", "travel"). */
  readonly uses: ReadonlyArray<string>
  /** Who it would make a gift for. */
  readonly gifts: ReadonlyArray<string>
  /** Men's/women's sizing (shoes or apparel). */
  readonly sizing?: "shoe" | "apparel"
  readonly kind?: "book"
  /** Relative share of products. */
  readonly weight: number
}

export const leaf = (category: Category, rest: Omit<Leaf, "category" | "path"> & { sub: string }): Leaf => ({
  ...rest,
  category,
  path: `${category} > ${rest.sub}`
})
