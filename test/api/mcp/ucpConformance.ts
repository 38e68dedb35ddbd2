import { readdirSync, readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js"
import addFormatsModule from "ajv-formats"

// Our answers checked against the Universal Commerce Protocol's published
// JSON Schemas (draft 2020-12), vendored unchanged in test/fixtures/ucp/<release>
// (see the README there: repository, tag, commit, licence). Which schema a
// tool's result follows is read from the release's own MCP binding
// (services/shopping/mcp.openrpc.json), not restated here.

export const UCP_RELEASE = "2026-04-08"
const SCHEMA_HOST = "https://ucp.dev/schemas/"
const root = resolve(import.meta.dirname, "..", "..", "fixtures", "ucp", UCP_RELEASE)

const jsonFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? jsonFiles(join(dir, entry.name)) : entry.name.endsWith(".json") ? [join(dir, entry.name)] : []
  )

// ajv-formats is CommonJS: its default export is the plugin, under `default` when imported from ESM.
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020
// Not strict: the published schemas carry annotation keywords of their own (`name`, `ucp_request`, ...).
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }))
for (const file of jsonFiles(root)) {
  const schema = JSON.parse(readFileSync(file, "utf8"))
  if (typeof schema.$id === "string") ajv.addSchema(schema)
}

/** The binding's references are relative to its own place in the repository; ours to the schemas' $ids. */
const binding = JSON.parse(readFileSync(join(root, "services", "shopping", "mcp.openrpc.json"), "utf8"))
const absolute = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(schema).replaceAll('"../../schemas/', `"${SCHEMA_HOST}`))
const resultSchemaOf = (tool: string) => {
  const method = (binding.methods as Array<any>).find((candidate) => candidate.name === tool)
  if (method === undefined) throw new Error(`the UCP MCP binding has no method ${tool}`)
  const ref: string | undefined = method.result.schema.$ref
  const local = ref?.startsWith("#/components/schemas/")
    ? binding.components.schemas[ref.slice("#/components/schemas/".length)]
    : method.result.schema
  return absolute(local)
}

const compiled = new Map<string, ValidateFunction>()
const validatorFor = (name: string, schema: () => unknown) => {
  const known = compiled.get(name)
  if (known !== undefined) return known
  const validate = ajv.compile(schema() as object)
  compiled.set(name, validate)
  return validate
}

const describe = (errors: ReadonlyArray<ErrorObject> | null | undefined) =>
  (errors ?? []).map((error) => `${error.instancePath || "(root)"} ${error.message} ${JSON.stringify(error.params)}`)

export type Conformance =
  | "business_profile"
  | "search_catalog"
  | "lookup_catalog"
  | "get_product"
  | "error_response"
  | "product"
  | "search_request"

const SCHEMAS: Record<Conformance, () => unknown> = {
  // The profile document is `{ ucp: <business schema> }` at this release.
  business_profile: () => ({
    type: "object",
    required: ["ucp"],
    properties: { ucp: { $ref: `${SCHEMA_HOST}ucp.json#/$defs/business_schema` } }
  }),
  search_catalog: () => resultSchemaOf("search_catalog"),
  lookup_catalog: () => resultSchemaOf("lookup_catalog"),
  get_product: () => resultSchemaOf("get_product"),
  error_response: () => ({ $ref: `${SCHEMA_HOST}shopping/types/error_response.json` }),
  product: () => ({ $ref: `${SCHEMA_HOST}shopping/types/product.json` }),
  search_request: () => ({ $ref: `${SCHEMA_HOST}shopping/catalog_search.json#/$defs/search_request` })
}

/** The published schema's complaints about `value` (empty: it conforms). */
export const violations = (kind: Conformance, value: unknown): Array<string> => {
  const validate = validatorFor(kind, SCHEMAS[kind])
  return validate(value) ? [] : describe(validate.errors)
}

/** `value`, after checking it against the release's schema for `kind` (a failure lists every violation). */
export const conforms = (kind: Conformance, value: unknown): any => {
  const problems = violations(kind, value)
  if (problems.length > 0) throw new Error(`not a UCP ${UCP_RELEASE} ${kind}:\n${problems.join("\n")}`)
  return value
}
