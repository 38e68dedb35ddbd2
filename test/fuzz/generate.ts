import fc from "fast-check"
import type { Contract } from "./contract.ts"
import type { Draft } from "./request.ts"
import type { Operation, Parameter, Spec } from "./spec.ts"
import { type Hints, valueOf } from "./values.ts"

// Valid requests for an operation, and single mutations of them. Each
// mutation has a name (reported with a finding) and applies to one place:
// a body field, the whole body, a path or query parameter, the credential.

/** What an injected <script> carries, so the HTML check can find it unescaped. */
export const SCRIPT_MARKER = "<script>fzx("

/** Nasty strings, each from the valid value it replaces. */
export const NASTY_STRINGS: ReadonlyArray<readonly [string, (valid: string) => string]> = [
  ["100KB string", () => "a".repeat(100_000)],
  ["NUL", (valid) => `${valid}\u0000x`],
  ["lone high surrogate", (valid) => `\ud800${valid}`],
  ["lone low surrogate", (valid) => `${valid}\udc00`],
  ["RTL override", (valid) => `\u202e${valid}\u202c`],
  ["CR/LF", (valid) => `${valid}\r\nX-Injected: 1`],
  ["<script>", (valid) => `${valid}"'><script>fzx(1)</script>`],
  ["control characters", (valid) => `${valid}\u0001\u001b[31m\u007f\u0085`],
  ["empty", () => ""],
  ["blank", () => " \t "],
  ["emoji and combining", (valid) => `${valid}👍🏽e\u0301`]
]

/** Wrong-typed JSON values; one of another type than the valid value is used. */
const WRONG_TYPES: ReadonlyArray<unknown> = [42, true, null, {}, [], "text", -1.5]

/** Numbers at the edges, as raw JSON text (1e309 is Infinity to JSON.parse). */
const BIG_NUMBERS = ["1e308", "-1e308", "1e309", "-0", "5e-324", "9007199254740993", "123456789012345678901234567890"]

const QUERY_NUMBERS = ["abc", "-1", "0", "1e308", "1.5", "0x10", " 1", "", "true", "99999999999999999999", "NaN"]
const BAD_PERCENT = ["%", "%zz", "%E0%A4", "%ED%A0%80", "%00", "%C0%AF", "%FF", "%%41", "a%2", "%u0041"]

const deepArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth)
const deepObjects = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth)

type Path = ReadonlyArray<string | number>

/** Every property (and array item) of a JSON value, depth first, as paths. */
const pathsOf = (value: unknown, prefix: Path = [], out: Array<Path> = []): Array<Path> => {
  if (Array.isArray(value))
    value.forEach((item, index) => (out.push([...prefix, index]), pathsOf(item, [...prefix, index], out)))
  else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      out.push([...prefix, key])
      pathsOf(item, [...prefix, key], out)
    }
  }
  return out
}

const getAt = (value: unknown, path: Path): unknown => path.reduce((node: any, key) => node?.[key], value)

/** A copy of `value` with `path` set (or removed, for `remove`). */
const setAt = (value: unknown, path: Path, replacement: unknown, remove = false): unknown => {
  const copy = structuredClone(value)
  const parent: any = getAt(copy, path.slice(0, -1))
  const key = path[path.length - 1]!
  if (remove) {
    if (Array.isArray(parent)) parent.splice(Number(key), 1)
    else delete parent[key]
  } else parent[key] = replacement
  return copy
}

const label = (path: Path) => path.join(".") || "(root)"
const jsonType = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value)
const pick = <A>(items: ReadonlyArray<A>, choice: number): A => items[choice % items.length]!

export interface Mutated {
  readonly draft: Draft
  /** e.g. "body NUL @ url", "query duplicate @ limit" */
  readonly mutation: string
  /** What the mutation did to the body, to judge against the document (contract.ts). */
  readonly contract?: Contract
}

interface Mutation {
  readonly name: string
  readonly applies: (op: Operation) => boolean
  /** undefined when the draft has no place for it (then the request is sent unmutated) */
  readonly apply: (draft: Draft, choices: ReadonlyArray<number>) => Mutated | undefined
}

const hasBody = (op: Operation) => op.body !== undefined
const hasParams = (op: Operation) => op.parameters.some((parameter) => parameter.in !== "header")
const authed = (op: Operation) => op.auth === "partner" || op.auth === "admin"

/** The body places a mutation may pick: all of them, or only the string values (where a nasty string matters). */
const bodyPaths = (draft: Draft, stringsOnly = false): Array<Path> => {
  const paths = pathsOf(draft.body)
  const strings = paths.filter((path) => typeof getAt(draft.body, path) === "string")
  return stringsOnly && strings.length > 0 ? strings : paths
}

const withBodyAt = (
  draft: Draft,
  choice: number,
  make: (current: unknown, path: Path) => Mutated | undefined,
  stringsOnly = false
) => {
  const paths = bodyPaths(draft, stringsOnly)
  if (paths.length === 0) return make(draft.body, [])
  const path = pick(paths, choice)
  return make(getAt(draft.body, path), path)
}

const splice = (draft: Draft, path: Path, raw: string, mutation: string): Mutated => {
  const placeholder = `__fz_splice_${Object.keys(draft.splices).length}__`
  const body = path.length === 0 ? placeholder : setAt(draft.body, path, placeholder)
  return { draft: { ...draft, body, splices: { ...draft.splices, [placeholder]: raw } }, mutation }
}

/** The parameters of a draft a mutation may touch: path params and query. */
const paramSlots = (draft: Draft): ReadonlyArray<{ readonly in: "path" | "query"; readonly name: string }> => [
  ...Object.keys(draft.pathParams).map((name) => ({ in: "path" as const, name })),
  ...draft.op.parameters.filter((p) => p.in === "query").map((p) => ({ in: "query" as const, name: p.name }))
]

const setParam = (draft: Draft, slot: { in: "path" | "query"; name: string }, value: string): Draft =>
  slot.in === "path"
    ? { ...draft, pathParams: { ...draft.pathParams, [slot.name]: value } }
    : { ...draft, query: [...draft.query.filter(([name]) => name !== slot.name), [slot.name, value]] }

const currentParam = (draft: Draft, slot: { in: "path" | "query"; name: string }) =>
  slot.in === "path"
    ? (draft.pathParams[slot.name] ?? "")
    : (draft.query.find(([name]) => name === slot.name)?.[1] ?? "x")

/** Every mutation kind. Add one here and every operation it applies to gets it. */
export const MUTATIONS: ReadonlyArray<Mutation> = [
  ...NASTY_STRINGS.map(([kind, make]): Mutation => ({
    name: `body ${kind}`,
    applies: hasBody,
    apply: (draft, [where = 0]) =>
      withBodyAt(draft, where, (current, path) =>
        path.length === 0
          ? undefined
          : {
              draft: { ...draft, body: setAt(draft.body, path, make(typeof current === "string" ? current : "x")) },
              mutation: `body ${kind} @ ${label(path)}`
            }
      )
  })),
  {
    name: "body wrong type",
    applies: hasBody,
    apply: (draft, [where = 0, which = 0]) =>
      withBodyAt(draft, where, (current, path) => {
        const candidates = WRONG_TYPES.filter((value) => jsonType(value) !== jsonType(current))
        const value = pick(candidates, which)
        return path.length === 0
          ? undefined
          : {
              draft: { ...draft, body: setAt(draft.body, path, value) },
              mutation: `body wrong type (${jsonType(value)}) @ ${label(path)}`,
              contract: { kind: "type", path, value }
            }
      })
  },
  {
    name: "body missing field",
    applies: hasBody,
    apply: (draft, [where = 0]) =>
      withBodyAt(draft, where, (_, path) =>
        path.length === 0
          ? undefined
          : {
              draft: { ...draft, body: setAt(draft.body, path, undefined, true) },
              mutation: `body missing @ ${label(path)}`,
              contract: { kind: "missing", path }
            }
      )
  },
  {
    name: "body unknown property",
    applies: hasBody,
    apply: (draft, [where = 0]) => {
      const objects: Array<Path> = [[], ...pathsOf(draft.body)].filter(
        (path) => jsonType(getAt(draft.body, path)) === "object"
      )
      if (objects.length === 0) return undefined
      const path = pick(objects, where)
      return {
        draft: { ...draft, body: setAt(draft.body, [...path, "fz_unknown_property"], "x") },
        mutation: `body unknown property @ ${label(path)}`,
        contract: { kind: "unknown property", path }
      }
    }
  },
  {
    name: "body edge number",
    applies: hasBody,
    apply: (draft, [where = 0, which = 0]) =>
      withBodyAt(draft, where, (_, path) =>
        splice(draft, path, pick(BIG_NUMBERS, which), `body number ${pick(BIG_NUMBERS, which)} @ ${label(path)}`)
      )
  },
  {
    name: "body deep nesting",
    applies: hasBody,
    apply: (draft, [where = 0, which = 0]) =>
      withBodyAt(draft, where, (_, path) =>
        which % 2 === 0
          ? splice(draft, path, deepArrays(50_000), `body 50,000 nested arrays @ ${label(path)}`)
          : splice(draft, path, deepObjects(10_000), `body 10,000 nested objects @ ${label(path)}`)
      )
  },
  {
    name: "body 10,000-item array",
    applies: hasBody,
    apply: (draft, [where = 0]) =>
      withBodyAt(draft, where, (current, path) => {
        const item = Array.isArray(current) ? (current[0] ?? "x") : current === undefined ? "x" : current
        return splice(
          draft,
          path,
          JSON.stringify(Array.from({ length: 10_000 }, () => item)),
          `body 10,000-item array @ ${label(path)}`
        )
      })
  },
  {
    name: "body not JSON",
    applies: hasBody,
    apply: (draft, [which = 0]) => {
      const valid = JSON.stringify(draft.body)
      const bodies: ReadonlyArray<readonly [string, string | Uint8Array]> = [
        ["empty", ""],
        ["truncated", valid.slice(0, Math.max(1, valid.length >> 1))],
        ["null", "null"],
        ["string", '"text"'],
        ["number", "1e308"],
        ["empty array", "[]"],
        ["trailing garbage", `${valid}}{`],
        [
          "duplicate keys",
          valid.startsWith("{") && valid.length > 2 ? `{"fz":1,"fz":2,${valid.slice(1)}` : `{"fz":1,"fz":2}`
        ],
        [
          "invalid UTF-8",
          Buffer.concat([Buffer.from(valid.slice(0, -1) || "{"), Buffer.from([0xff, 0xfe, 0xc0]), Buffer.from('"}')])
        ],
        ["BOM", `\ufeff${valid}`],
        ["single quotes", valid.replace(/"/g, "'")],
        ["NUL byte", `${valid}\u0000`]
      ]
      const [kind, body] = pick(bodies, which)
      return { draft: { ...draft, rawBody: body }, mutation: `body not JSON: ${kind}` }
    }
  },
  {
    name: "body content type",
    applies: hasBody,
    apply: (draft, [which = 0]) => {
      const type = pick(
        [
          null,
          "text/plain",
          "application/x-www-form-urlencoded",
          "application/json; charset=utf-16",
          "multipart/form-data; boundary=x",
          "application/json, text/plain",
          "a/b/c"
        ],
        which
      )
      return { draft: { ...draft, contentType: type }, mutation: `content-type ${type ?? "(none)"}` }
    }
  },
  ...NASTY_STRINGS.map(([kind, make]): Mutation => ({
    name: `param ${kind}`,
    applies: hasParams,
    apply: (draft, [where = 0]) => {
      const slots = paramSlots(draft)
      if (slots.length === 0) return undefined
      const slot = pick(slots, where)
      return {
        draft: setParam(draft, slot, make(currentParam(draft, slot))),
        mutation: `${slot.in} ${kind} @ ${slot.name}`
      }
    }
  })),
  {
    name: "param wrong type",
    applies: hasParams,
    apply: (draft, [where = 0, which = 0]) => {
      const slots = paramSlots(draft)
      if (slots.length === 0) return undefined
      const slot = pick(slots, where)
      const value = pick(QUERY_NUMBERS, which)
      return {
        draft: setParam(draft, slot, value),
        mutation: `${slot.in} value ${JSON.stringify(value)} @ ${slot.name}`
      }
    }
  },
  {
    name: "param missing",
    applies: hasParams,
    apply: (draft, [where = 0]) => {
      const slots = paramSlots(draft)
      if (slots.length === 0) return undefined
      const slot = pick(slots, where)
      return slot.in === "path"
        ? { draft: setParam(draft, slot, ""), mutation: `path empty @ ${slot.name}` }
        : {
            draft: { ...draft, query: draft.query.filter(([name]) => name !== slot.name) },
            mutation: `query missing @ ${slot.name}`
          }
    }
  },
  {
    name: "query duplicate",
    applies: (op) => op.parameters.some((p) => p.in === "query"),
    apply: (draft, [where = 0, which = 0]) => {
      const slot = pick(
        draft.op.parameters.filter((p) => p.in === "query"),
        where
      )
      const value = currentParam(draft, { in: "query", name: slot.name })
      const forms: ReadonlyArray<readonly [string, Draft]> = [
        ["twice, same value", { ...draft, query: [...draft.query, [slot.name, value], [slot.name, value]] }],
        ["twice, other value", { ...draft, query: [...draft.query, [slot.name, value], [slot.name, "2"]] }],
        ["as name[]", { ...draft, rawQuery: [...draft.rawQuery, `${slot.name}[]=1`, `${slot.name}[]=2`] }],
        [
          "100 times",
          { ...draft, rawQuery: [...draft.rawQuery, ...Array.from({ length: 100 }, (_, i) => `${slot.name}=${i}`)] }
        ]
      ]
      const [form, mutated] = pick(forms, which)
      return { draft: mutated, mutation: `query duplicate ${form} @ ${slot.name}` }
    }
  },
  {
    name: "query bad percent-encoding",
    applies: (op) => op.method !== "POST",
    apply: (draft, [where = 0, which = 0]) => {
      const names = [...draft.op.parameters.filter((p) => p.in === "query").map((p) => p.name), "fz"]
      const name = pick(names, where)
      const bad = pick(BAD_PERCENT, which)
      const asName = which % 3 === 0
      return {
        draft: {
          ...draft,
          query: draft.query.filter(([n]) => n !== name),
          rawQuery: [...draft.rawQuery, asName ? `${bad}=1` : `${name}=${bad}`]
        },
        mutation: `query bad percent-encoding ${bad} @ ${asName ? "(name)" : name}`
      }
    }
  },
  {
    name: "query unknown parameter",
    applies: () => true,
    apply: (draft) => ({
      draft: { ...draft, query: [...draft.query, ["fz_unknown", "1"]] },
      mutation: "query unknown parameter"
    })
  },
  {
    name: "path bad percent-encoding",
    applies: (op) => op.path.includes("{"),
    apply: (draft, [where = 0, which = 0]) => {
      const names = Object.keys(draft.pathParams)
      const name = pick(names, where)
      // (no bare "..": the client would resolve it away before sending)
      const bad = pick([...BAD_PERCENT, "%2F..%2F", "a%2Fb"], which)
      return {
        draft: { ...draft, rawPathParams: { ...draft.rawPathParams, [name]: bad } },
        mutation: `path bad percent-encoding ${bad} @ ${name}`
      }
    }
  },
  {
    name: "credential",
    applies: authed,
    apply: (draft, [which = 0]) => {
      const forms: ReadonlyArray<readonly [string, string]> = [
        ["missing", "none"],
        ["garbage bearer", "Bearer x"],
        ["other scheme", "Basic YWRtaW46YWRtaW4="],
        ["well-formed unknown key", `Bearer ak_${"A".repeat(43)}`],
        ["8 KB bearer", `Bearer ${"k".repeat(8_000)}`],
        ["bearer without token", "Bearer"],
        ["two tokens", "Bearer a b"]
      ]
      const [form, credential] = pick(forms, which)
      return { draft: { ...draft, credential }, mutation: `credential ${form}` }
    }
  },
  {
    name: "postback signing",
    applies: (op) => op.auth === "postback",
    apply: (draft, [which = 0]) => {
      const signing = pick(["stale", "wrong", "unknownNetwork", "unsigned"] as const, which)
      return { draft: { ...draft, signing }, mutation: `postback signature ${signing}` }
    }
  }
]

/** Valid requests for `op`: every required parameter and body field, optional ones sometimes. */
export const validDraft = (op: Operation, spec: Spec, hints: Hints): fc.Arbitrary<Draft> => {
  const pathParams = op.parameters.filter((p) => p.in === "path")
  const queryParams = op.parameters.filter((p) => p.in === "query")
  // A hint for this operation's parameter ("page.deal.id") before one for the name ("id").
  const paramValue = (p: Parameter) =>
    (hints[`${op.id}.${p.name}`] ?? valueOf(p.schema, spec.resolve, hints, p.name)).map((value) => String(value))
  return fc
    .record({
      path: fc.tuple(...pathParams.map((p) => paramValue(p))),
      query: fc.tuple(...queryParams.map((p) => (p.required ? paramValue(p) : fc.option(paramValue(p), { freq: 2 })))),
      body: op.body === undefined ? fc.constant(undefined) : valueOf(op.body, spec.resolve, hints, `body:${op.id}`)
    })
    .map(({ path, query, body }) => ({
      op,
      pathParams: Object.fromEntries(pathParams.map((p, i) => [p.name, path[i] as string])),
      rawPathParams: {},
      query: queryParams.flatMap((p, i) => (query[i] === null ? [] : [[p.name, query[i] as string] as const])),
      rawQuery: [],
      headers: {},
      body,
      splices: {},
      rawBody: undefined,
      contentType: undefined,
      credential: "valid",
      signing: "valid"
    }))
}

const choicesArb = fc.array(fc.nat({ max: 1_000 }), { minLength: 3, maxLength: 3 })

/**
 * Requests for `op`: `valid` valid ones, then `perKind` of every mutation kind
 * that applies to it (each of a fresh valid request), so a bounded run still
 * tries every kind on every operation. Deterministic for a seed.
 */
/**
 * Requests that found problems before, tried on every run whatever the seed:
 * an operation, a mutation kind and the field it goes to (a body field by
 * its last name, or a parameter).
 */
export const KNOWN_CASES: ReadonlyArray<{ readonly op: string; readonly mutation: string; readonly where: string }> = [
  { op: "conversions.postback", mutation: "body lone high surrogate", where: "transaction_id" },
  { op: "conversions.postback", mutation: "body lone low surrogate", where: "click_ref" },
  { op: "conversions.postback", mutation: "body NUL", where: "transaction_id" },
  { op: "conversions.postback", mutation: "body wrong type", where: "order_amount" },
  { op: "links.match", mutation: "body lone low surrogate", where: "url" },
  { op: "partners.register", mutation: "body NUL", where: "name" },
  { op: "page.search", mutation: "param NUL", where: "q" },
  { op: "page.search", mutation: "param control characters", where: "q" },
  { op: "page.search", mutation: "param <script>", where: "q" },
  { op: "catalog.programs", mutation: "param NUL", where: "network" },
  { op: "adminPipelines.run", mutation: "param NUL", where: "id" }
]

/** The known cases for `op`, each on a valid request from `seed`. */
export const knownCasesFor = (op: Operation, spec: Spec, hints: Hints, seed: number): ReadonlyArray<Mutated> =>
  KNOWN_CASES.filter((known) => known.op === op.id).flatMap((known) => {
    const mutation = MUTATIONS.find((candidate) => candidate.name === known.mutation)
    if (mutation === undefined) throw new Error(`KNOWN_CASES: no mutation named ${known.mutation}`)
    const stringsOnly = /lone|NUL|control|script|string|RTL|CR\/LF/.test(known.mutation)
    const whereIn = (draft: Draft) =>
      known.mutation.startsWith("body")
        ? bodyPaths(draft, stringsOnly).findIndex((path) => String(path[path.length - 1]) === known.where)
        : paramSlots(draft).findIndex((slot) => slot.name === known.where)
    // the first of a few valid requests that has the field (an optional one may be left out)
    const draft = fc.sample(validDraft(op, spec, hints), { seed, numRuns: 50 }).find((d) => whereIn(d) >= 0)
    if (draft === undefined) throw new Error(`KNOWN_CASES: ${op.id} has no ${known.where} for ${known.mutation}`)
    return [mutation.apply(draft, [whereIn(draft), 0, 0]) ?? { draft, mutation: "valid" }]
  })

export const requestsFor = (
  op: Operation,
  spec: Spec,
  hints: Hints,
  counts: { readonly valid: number; readonly perKind: number },
  seedOf: (kind: string) => number
): ReadonlyArray<Mutated> => {
  const valid = validDraft(op, spec, hints)
  const requests: Array<Mutated> = fc
    .sample(valid, { seed: seedOf("valid"), numRuns: counts.valid })
    .map((draft) => ({ draft, mutation: "valid" }))
  for (const mutation of MUTATIONS.filter((candidate) => candidate.applies(op))) {
    for (const [draft, choices] of fc.sample(fc.tuple(valid, choicesArb), {
      seed: seedOf(mutation.name),
      numRuns: counts.perKind
    })) {
      requests.push(mutation.apply(draft, choices) ?? { draft, mutation: "valid" })
    }
  }
  return requests
}
