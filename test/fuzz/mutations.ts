import type { Draft } from "./request.ts"
import type { Operation } from "./spec.ts"
import {
  currentParam,
  getAt,
  jsonType,
  label,
  type Mutated,
  paramSlots,
  type Path,
  pathsOf,
  pick,
  setAt,
  setParam,
  splice,
  withBodyAt
} from "./draftEdits.ts"

// Single mutations of a valid request. Each has a name (reported with a
// finding) and applies to one place: a body field, the whole body, a path or
// query parameter, the credential, the postback signature.

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

export interface Mutation {
  readonly name: string
  readonly applies: (op: Operation) => boolean
  /** undefined when the draft has no place for it (then the request is sent unmutated) */
  readonly apply: (draft: Draft, choices: ReadonlyArray<number>) => Mutated | undefined
}

const hasBody = (op: Operation) => op.body !== undefined
const hasParams = (op: Operation) => op.parameters.some((parameter) => parameter.in !== "header")
const authed = (op: Operation) => op.auth === "partner" || op.auth === "admin"

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
