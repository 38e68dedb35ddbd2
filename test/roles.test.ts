import { ConfigProvider, Effect, Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AppConfig } from "../infra/AppConfig.ts"
import { getJson, postJson } from "./support/http.ts"
import { type RunningService, startService } from "./support/TestService.ts"

// ROLE splits the service: `api` serves HTTP and never runs feeds, `worker`
// runs schedules and feeds and serves only its operations surface. Split
// roles need PostgreSQL, so the config refuses them without DATABASE_URL;
// the HTTP surface of each role is checked here on DuckDB (the role decides
// the composition, not the store).
const ADMIN = { authorization: "Bearer test-admin-token" }

const configFrom = (env: Record<string, string>) =>
  Effect.runPromise(
    AppConfig.fromEnv.pipe(
      Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })),
      Effect.result
    )
  )
const failureOf = async (env: Record<string, string>) => {
  const result = await configFrom(env)
  if (result._tag === "Success") throw new Error(`expected ${JSON.stringify(env)} to be refused`)
  return String(result.failure.message)
}

describe("ROLE and CATALOG_POLL_MS in the configuration", () => {
  it("defaults to all, on DuckDB, polling every second", async () => {
    const result = await configFrom({})
    expect(result._tag).toBe("Success")
    if (result._tag !== "Success") return
    expect(result.success.role).toBe("all")
    expect(Option.isNone(result.success.databaseUrl)).toBe(true)
    expect(result.success.catalogPollMs).toBe(1_000)
  })

  it("refuses an unknown ROLE, naming the variable and the allowed values", async () => {
    const message = await failureOf({ ROLE: "scheduler" })
    expect(message).toContain("ROLE")
    expect(message).toContain('"all" | "api" | "worker"')
  })

  it("refuses ROLE=api and ROLE=worker without DATABASE_URL, saying why", async () => {
    for (const role of ["api", "worker"]) {
      const message = await failureOf({ ROLE: role })
      expect(message).toContain(`ROLE=${role} needs DATABASE_URL`)
      expect(message).toContain("one DuckDB file allows one writing process")
    }
  })

  it("accepts a split role with DATABASE_URL, kept redacted", async () => {
    const result = await configFrom({ ROLE: "worker", DATABASE_URL: "postgres://app:secret@db.internal/affiliate" })
    expect(result._tag).toBe("Success")
    if (result._tag !== "Success") return
    expect(result.success.role).toBe("worker")
    expect(String(result.success.databaseUrl)).not.toContain("secret")
    expect(Option.map(result.success.databaseUrl, Redacted.value)).toEqual(
      Option.some("postgres://app:secret@db.internal/affiliate")
    )
  })

  it("refuses a CATALOG_POLL_MS that would busy-loop the database, naming it", async () => {
    expect(await failureOf({ CATALOG_POLL_MS: "5" })).toContain("CATALOG_POLL_MS")
    expect(await failureOf({ CATALOG_POLL_MS: "soon" })).toContain("CATALOG_POLL_MS")
  })
})

describe("ROLE=worker over HTTP", () => {
  let worker: RunningService
  beforeAll(async () => {
    worker = await startService({ role: "worker" })
  })
  afterAll(() => worker?.close())

  it("serves /health, /ready, /metrics and /admin", async () => {
    expect((await getJson(`${worker.url}/health`)).status).toBe(200)
    expect((await getJson(`${worker.url}/ready`)).status).toBe(200)
    expect((await fetch(`${worker.url}/metrics`, { headers: ADMIN })).status).toBe(200)
    const feeds = await getJson(`${worker.url}/admin/feeds`, ADMIN)
    expect(feeds.status).toBe(200)
    expect(Array.isArray(feeds.body.feeds)).toBe(true)
    expect((await getJson(`${worker.url}/admin/feeds`)).status).toBe(401) // still behind the admin token
  })

  it("answers every other path, the redirect included, with a JSON 404 naming the role", async () => {
    for (const path of ["/api/search?q=shoes", "/api/v1/links", "/t/abc123", "/", "/openapi.json", "/healthz"]) {
      const response = await getJson(`${worker.url}${path}`)
      expect(response.status, path).toBe(404)
      expect(response.headers.get("content-type")).toBe("application/json")
      expect(response.body.error.code).toBe("not_found")
      expect(response.body.error.message).toContain("ROLE=worker")
    }
    const post = await postJson(`${worker.url}/api/v1/partners/register`, { name: "X", email: "x@x.example" })
    expect(post.status).toBe(404)
  })
})

describe("ROLE=api over HTTP", () => {
  let api: RunningService
  beforeAll(async () => {
    api = await startService({ role: "api" })
  })
  afterAll(() => api?.close())

  it("refuses to run a pipeline with 409 runs_on_worker, naming ROLE=worker; read-only admin views stay", async () => {
    for (const payload of [{ feed: "networks" }, {}, { wait: false }]) {
      const response = await postJson(`${api.url}/admin/ingest`, payload, ADMIN)
      expect(response.status).toBe(409)
      expect(response.body.error.code).toBe("runs_on_worker")
      expect(response.body.error.message).toContain("ROLE=worker")
    }
    expect((await getJson(`${api.url}/admin/runs`, ADMIN)).body).toEqual({ runs: [] }) // nothing ran here
    expect((await getJson(`${api.url}/admin/feeds`, ADMIN)).status).toBe(200)
  })

  it("serves the API and is ready at once (it never ingests)", async () => {
    expect((await getJson(`${api.url}/ready`)).status).toBe(200)
    const search = await getJson(`${api.url}/api/search?q=shoes`)
    expect(search.status).toBe(200)
    const registered = await postJson(`${api.url}/api/v1/partners/register`, { name: "Api Co", email: "a@x.example" })
    expect(registered.status).toBe(200)
    expect(typeof registered.body.api_key).toBe("string")
  })
})
