import { Effect, Schema, SchemaTransformation } from "effect"
import { rule } from "../Rejections.ts"

// The Schema rules for catalog records (networks and programmes), applied to
// every line of their JSONL feeds.

/** A string or number, decoded by `f` into a string that `to` then checks (trim, lower-case, String). */
const via = <A extends string | number>(from: Schema.Codec<A>, to: Schema.Codec<string>, f: (value: A) => string) =>
  from.pipe(
    Schema.decodeTo(to, SchemaTransformation.transform<string, A>({ decode: f, encode: (value) => value as A }))
  )
/** An optional key whose absence (or null) decodes to null. */
const orNull = <S extends Schema.Top>(schema: S) =>
  Schema.NullOr(schema).pipe(Schema.withDecodingDefaultKey(Effect.succeed(null)))
const withDefault = <S extends Schema.Top>(schema: S, value: S["Encoded"]) =>
  schema.pipe(Schema.withDecodingDefaultKey(Effect.succeed(value)))

const matching = (pattern: RegExp, message: string) =>
  Schema.String.check(rule((v: string) => pattern.test(v), message))
const nonEmpty = Schema.String.check(rule((v: string) => v.length >= 1, "must not be empty"))
const trimmed = via(Schema.String, nonEmpty, (v: string) => v.trim())

const slug = matching(/^[a-z0-9][a-z0-9_.-]{0,63}$/, "must be a lower-case slug")
const host = via(
  Schema.String,
  matching(
    /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/,
    "must be a host name like shop.example.com"
  ),
  (v: string) => v.trim().toLowerCase()
)
const nullableText = orNull(trimmed)
const params = withDefault(
  Schema.Record(
    Schema.String,
    via(Schema.Union([Schema.String, Schema.Number]), Schema.String, (v: string | number) => String(v))
  ),
  {}
)

export const NetworkRecord = Schema.Struct({
  id: slug,
  name: trimmed,
  status: Schema.Literals(["active", "paused", "closed"]),
  website: orNull(matching(/^https?:\/\/\S+$/, "must be an http(s) URL")),
  click_hosts: withDefault(Schema.Array(host), []),
  deep_link_template: nullableText,
  subid_param: nullableText,
  unwrap_params: withDefault(Schema.Array(nonEmpty), []),
  confidence: Schema.Literals(["H", "M", "U"]),
  successor_id: orNull(slug),
  regions: withDefault(Schema.Array(nonEmpty), []),
  account_params: params
})
export type NetworkRecord = typeof NetworkRecord.Type

export const COMMISSION_TYPES = ["CPS", "CPA", "CPL", "CPC"] as const

const atLeastZero = Schema.Number.check(rule((v: number) => v >= 0, "must be at least 0"))

export const ProgramRecord = Schema.Struct({
  network_id: slug,
  merchant_id: via(Schema.Union([trimmed, Schema.Number]), Schema.String, (v: string | number) => String(v)),
  name: trimmed,
  domains: Schema.Array(host).check(rule((v: ReadonlyArray<string>) => v.length >= 1, "must list at least one domain")),
  country: orNull(matching(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 code like GB")),
  category: nullableText,
  commission_type: Schema.Literals(COMMISSION_TYPES),
  commission_rate: atLeastZero,
  commission_currency: orNull(matching(/^[A-Z]{3}$/, "must be an ISO 4217 code")),
  cookie_days: orNull(atLeastZero.check(rule((v: number) => Number.isInteger(v), "must be an integer"))),
  status: Schema.Literals(["active", "paused", "closed", "pending"]),
  deep_link_allowed: withDefault(Schema.Boolean, true),
  epc: orNull(atLeastZero),
  link_params: params
}).check(
  Schema.makeFilter(
    (program) =>
      program.commission_type !== "CPS" ||
      program.commission_rate <= 100 || { path: ["commission_rate"], issue: "a CPS rate is a percentage (0..100)" }
  )
)
export type ProgramRecord = typeof ProgramRecord.Type
