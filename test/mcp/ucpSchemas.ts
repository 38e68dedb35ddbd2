import { z } from "zod"

// The UCP catalog response shapes, transcribed from the spec's schemas
// (Universal-Commerce-Protocol/ucp, source/schemas/shopping/catalog_search.json,
// catalog_lookup.json and the types they reference: product, variant, price,
// price_range, description, media, availability, pagination, message,
// input_correlation). No registry package carries them: @ucp-js/sdk 0.1.1 ships
// zod schemas for checkout, order and the discovery profile of 2026-01-11, none
// for the catalog. Required fields and types as the spec states them; extra
// fields pass (the spec allows them).

const Version = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)
const Price = z.object({ amount: z.number().int().nonnegative(), currency: z.string().regex(/^[A-Z]{3}$/) })
const PriceRange = z.object({ min: Price, max: Price })
const Description = z.object({ plain: z.string().optional(), html: z.string().optional(), markdown: z.string().optional() })
  .refine((value) => value.plain !== undefined || value.html !== undefined || value.markdown !== undefined, "one format")
const Media = z.object({ type: z.string(), url: z.string().url(), alt_text: z.string().optional() })
const Category = z.object({ value: z.string(), taxonomy: z.string().optional() })
const Availability = z.object({ available: z.boolean().optional(), status: z.string().optional() })
const Link = z.object({ type: z.string(), url: z.string().url(), title: z.string().optional() })

export const Variant = z.object({
  id: z.string().min(1),
  title: z.string(),
  description: Description,
  price: Price,
  list_price: Price.optional(),
  url: z.string().url().optional(),
  availability: Availability.optional(),
  condition: z.string().optional(),
  categories: z.array(Category).optional(),
  media: z.array(Media).optional(),
  seller: z.object({ name: z.string().optional(), links: z.array(Link).optional() }).optional(),
  metadata: z.record(z.string(), z.unknown()).optional()
})

export const Product = z.object({
  id: z.string().min(1),
  title: z.string(),
  description: Description,
  url: z.string().url().optional(),
  brand: z.string().optional(),
  categories: z.array(Category).optional(),
  price_range: PriceRange,
  list_price_range: PriceRange.optional(),
  media: z.array(Media).optional(),
  variants: z.array(Variant).min(1),
  metadata: z.record(z.string(), z.unknown()).optional()
})

const Envelope = (capability: string) =>
  z.object({
    version: Version,
    capabilities: z.record(z.string(), z.array(z.object({ version: Version }))).refine((map) => capability in map, capability)
  })

const Message = z.object({ type: z.enum(["error", "warning", "info"]), code: z.string().optional(), content: z.string() })

export const SearchResponse = z.object({
  ucp: Envelope("dev.ucp.shopping.catalog.search"),
  products: z.array(Product),
  pagination: z.object({ cursor: z.string().optional(), has_next_page: z.boolean(), total_count: z.number().int().optional() }).optional(),
  messages: z.array(Message).optional()
})

const InputCorrelation = z.object({ id: z.string(), match: z.enum(["exact", "featured"]) })

export const LookupResponse = z.object({
  ucp: Envelope("dev.ucp.shopping.catalog.lookup"),
  products: z.array(Product.extend({ variants: z.array(Variant.extend({ inputs: z.array(InputCorrelation).min(1) })).min(1) })),
  messages: z.array(Message).optional()
})

export const GetProductResponse = z.object({
  ucp: Envelope("dev.ucp.shopping.catalog.lookup"),
  product: Product,
  messages: z.array(Message).optional()
})

/** The business profile at /.well-known/ucp (services and capabilities keyed by reverse-domain name). */
export const DiscoveryProfile = z.object({
  ucp: z.object({
    version: Version,
    services: z.record(z.string(), z.object({
      version: Version,
      spec: z.string().url(),
      mcp: z.object({ schema: z.string().url(), endpoint: z.string().url() }).optional()
    })),
    capabilities: z.record(z.string(), z.array(z.object({
      version: Version,
      spec: z.string().url(),
      schema: z.string().url(),
      extends: z.string().optional()
    })))
  })
})
