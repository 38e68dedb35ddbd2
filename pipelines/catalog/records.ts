import { z } from "zod"

// The zod rules for catalog records (networks and programmes), applied to
// every line of their JSONL feeds.

const slug = z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/, "must be a lower-case slug")
const host = z.string().trim().toLowerCase().regex(
  /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/,
  "must be a host name like shop.example.com"
)
const nullableText = z.string().trim().min(1).nullish().transform((v) => v ?? null)
const params = z.record(z.string(), z.union([z.string(), z.number()]).transform(String)).default({})

export const NetworkRecord = z.object({
  id: slug,
  name: z.string().trim().min(1),
  status: z.enum(["active", "paused", "closed"]),
  website: z.string().regex(/^https?:\/\/\S+$/, "must be an http(s) URL").nullish().transform((v) => v ?? null),
  click_hosts: z.array(host).default([]),
  deep_link_template: nullableText,
  subid_param: nullableText,
  unwrap_params: z.array(z.string().min(1)).default([]),
  confidence: z.enum(["H", "M", "U"]),
  successor_id: slug.nullish().transform((v) => v ?? null),
  regions: z.array(z.string().min(1)).default([]),
  account_params: params
})
export type NetworkRecord = z.output<typeof NetworkRecord>

export const COMMISSION_TYPES = ["CPS", "CPA", "CPL", "CPC"] as const

export const ProgramRecord = z.object({
  network_id: slug,
  merchant_id: z.union([z.string().trim().min(1), z.number()]).transform(String),
  name: z.string().trim().min(1),
  domains: z.array(host).min(1, "must list at least one domain"),
  country: z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 code like GB").nullish().transform((v) => v ?? null),
  category: nullableText,
  commission_type: z.enum(COMMISSION_TYPES),
  commission_rate: z.number().min(0),
  commission_currency: z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code").nullish().transform((v) => v ?? null),
  cookie_days: z.number().int().min(0).nullish().transform((v) => v ?? null),
  status: z.enum(["active", "paused", "closed", "pending"]),
  deep_link_allowed: z.boolean().default(true),
  epc: z.number().min(0).nullish().transform((v) => v ?? null),
  link_params: params
}).superRefine((program, ctx) => {
  if (program.commission_type === "CPS" && program.commission_rate > 100) {
    ctx.addIssue({ code: "custom", path: ["commission_rate"], message: "a CPS rate is a percentage (0..100)" })
  }
})
export type ProgramRecord = z.output<typeof ProgramRecord>
