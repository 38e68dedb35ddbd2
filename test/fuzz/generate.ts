import fc from "fast-check"
import { bodyPaths, type Mutated, paramSlots } from "./draftEdits.ts"
import { MUTATIONS } from "./mutations.ts"
import type { Draft } from "./request.ts"
import type { Operation, Parameter, Spec } from "./spec.ts"
import { type Hints, valueOf } from "./values.ts"

// The requests of a fuzz round for an operation: valid ones built from its
// schemas, one of every mutation kind, and the known cases.

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
