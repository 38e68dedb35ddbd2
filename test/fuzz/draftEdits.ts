import type { Contract } from "./contract.ts"
import type { Draft } from "./request.ts"

// Edits of a request draft the mutations are made of: places in a JSON body
// (as paths), and path and query parameters.

export type Path = ReadonlyArray<string | number>

/** Every property (and array item) of a JSON value, depth first, as paths. */
export const pathsOf = (value: unknown, prefix: Path = [], out: Array<Path> = []): Array<Path> => {
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

export const getAt = (value: unknown, path: Path): unknown => path.reduce((node: any, key) => node?.[key], value)

/** A copy of `value` with `path` set (or removed, for `remove`). */
export const setAt = (value: unknown, path: Path, replacement: unknown, remove = false): unknown => {
  const copy = structuredClone(value)
  const parent: any = getAt(copy, path.slice(0, -1))
  const key = path[path.length - 1]!
  if (remove) {
    if (Array.isArray(parent)) parent.splice(Number(key), 1)
    else delete parent[key]
  } else parent[key] = replacement
  return copy
}

export const label = (path: Path) => path.join(".") || "(root)"
export const jsonType = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value)
export const pick = <A>(items: ReadonlyArray<A>, choice: number): A => items[choice % items.length]!

export interface Mutated {
  readonly draft: Draft
  /** e.g. "body NUL @ url", "query duplicate @ limit" */
  readonly mutation: string
  /** What the mutation did to the body, to judge against the document (contract.ts). */
  readonly contract?: Contract
}

/** The body places a mutation may pick: all of them, or only the string values (where a nasty string matters). */
export const bodyPaths = (draft: Draft, stringsOnly = false): Array<Path> => {
  const paths = pathsOf(draft.body)
  const strings = paths.filter((path) => typeof getAt(draft.body, path) === "string")
  return stringsOnly && strings.length > 0 ? strings : paths
}

export const withBodyAt = (
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

export const splice = (draft: Draft, path: Path, raw: string, mutation: string): Mutated => {
  const placeholder = `__fz_splice_${Object.keys(draft.splices).length}__`
  const body = path.length === 0 ? placeholder : setAt(draft.body, path, placeholder)
  return { draft: { ...draft, body, splices: { ...draft.splices, [placeholder]: raw } }, mutation }
}

/** The parameters of a draft a mutation may touch: path params and query. */
export const paramSlots = (draft: Draft): ReadonlyArray<{ readonly in: "path" | "query"; readonly name: string }> => [
  ...Object.keys(draft.pathParams).map((name) => ({ in: "path" as const, name })),
  ...draft.op.parameters.filter((p) => p.in === "query").map((p) => ({ in: "query" as const, name: p.name }))
]

export const setParam = (draft: Draft, slot: { in: "path" | "query"; name: string }, value: string): Draft =>
  slot.in === "path"
    ? { ...draft, pathParams: { ...draft.pathParams, [slot.name]: value } }
    : { ...draft, query: [...draft.query.filter(([name]) => name !== slot.name), [slot.name, value]] }

export const currentParam = (draft: Draft, slot: { in: "path" | "query"; name: string }) =>
  slot.in === "path"
    ? (draft.pathParams[slot.name] ?? "")
    : (draft.query.find(([name]) => name === slot.name)?.[1] ?? "x")
