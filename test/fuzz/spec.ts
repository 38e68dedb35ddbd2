// The operations the fuzz run drives, read from the service's own
// /openapi.json, plus the routes the document does not describe (the HTML
// pages and /mcp), which get their allowed statuses here.

export type JsonSchema = Readonly<Record<string, any>>
export type Auth = "none" | "partner" | "admin" | "postback"

export interface Parameter {
  readonly name: string
  readonly in: "path" | "query" | "header"
  readonly required: boolean
  readonly schema: JsonSchema
}

export interface Operation {
  /** operationId, or the page's name for routes outside the document */
  readonly id: string
  readonly method: "GET" | "HEAD" | "POST" | "DELETE"
  /** e.g. /admin/runs/{id} */
  readonly path: string
  readonly parameters: ReadonlyArray<Parameter>
  readonly body: JsonSchema | undefined
  /** The statuses the document lists for this operation. */
  readonly statuses: ReadonlySet<number>
  readonly auth: Auth
  /** Whether /openapi.json describes it (the "documented status" check applies). */
  readonly documented: boolean
}

export interface Spec {
  readonly operations: ReadonlyArray<Operation>
  /** Resolves a `$ref` of the document. */
  readonly resolve: (schema: JsonSchema) => JsonSchema
}

const METHODS = ["get", "head", "post", "delete"] as const

const authOf = (path: string, operation: JsonSchema): Auth => {
  if (operation.operationId === "conversions.postback") return "postback"
  const secured = Array.isArray(operation.security) && operation.security.length > 0
  if (!secured) return "none"
  return path.startsWith("/admin") ? "admin" : "partner"
}

/** Routes served outside HttpApi and not in the document: HTML pages and helpers, with the statuses they may answer. */
export const UNDOCUMENTED_ROUTES: ReadonlyArray<Operation> = [
  {
    id: "page.start",
    method: "GET",
    path: "/",
    parameters: [],
    body: undefined,
    statuses: new Set([200]),
    auth: "none",
    documented: false
  },
  {
    id: "page.search",
    method: "GET",
    path: "/search",
    parameters: [
      { name: "q", in: "query", required: true, schema: { type: "string", maxLength: 200 } },
      { name: "tag", in: "query", required: false, schema: { type: "string", maxLength: 64 } }
    ],
    body: undefined,
    statuses: new Set([200, 400, 413, 414, 429, 431, 503]),
    auth: "none",
    documented: false
  },
  {
    id: "page.deal",
    method: "GET",
    path: "/deals/{id}",
    parameters: [
      { name: "id", in: "path", required: true, schema: { type: "string", maxLength: 300 } },
      { name: "tag", in: "query", required: false, schema: { type: "string", maxLength: 64 } }
    ],
    body: undefined,
    statuses: new Set([200, 400, 404, 413, 414, 429, 431, 503]),
    auth: "none",
    documented: false
  },
  {
    id: "page.docs",
    method: "GET",
    path: "/docs",
    parameters: [],
    body: undefined,
    statuses: new Set([200]),
    auth: "none",
    documented: false
  },
  {
    id: "wellKnown.ucp",
    method: "GET",
    path: "/.well-known/ucp",
    parameters: [],
    body: undefined,
    statuses: new Set([200]),
    auth: "none",
    documented: false
  }
]

/** The document's operations (every method and path), then the routes it does not describe. */
export const readSpec = (document: JsonSchema): Spec => {
  const resolve = (schema: JsonSchema): JsonSchema => {
    let current = schema
    for (let hops = 0; typeof current?.$ref === "string" && hops < 20; hops++) {
      const ref: string = current.$ref
      current = ref
        .replace(/^#\//, "")
        .split("/")
        .reduce((node: any, key) => node?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], document)
    }
    return current ?? {}
  }
  const operations: Array<Operation> = []
  for (const [path, item] of Object.entries<JsonSchema>(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation: JsonSchema | undefined = item[method]
      if (operation === undefined) continue
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map(
        (parameter: JsonSchema): Parameter => {
          const resolved = resolve(parameter)
          return {
            name: resolved.name,
            in: resolved.in,
            required: resolved.required === true,
            schema: resolve(resolved.schema ?? {})
          }
        }
      )
      const content = resolve(operation.requestBody ?? {}).content ?? {}
      const json = content["application/json"]?.schema
      operations.push({
        id: operation.operationId ?? `${method} ${path}`,
        method: method.toUpperCase() as Operation["method"],
        path,
        parameters,
        body: json === undefined ? undefined : resolve(json),
        statuses: new Set(
          Object.keys(operation.responses ?? {})
            .filter((status) => /^\d{3}$/.test(status))
            .map(Number)
        ),
        auth: authOf(path, operation),
        documented: true
      })
    }
  }
  return { operations: [...operations, ...UNDOCUMENTED_ROUTES], resolve }
}
