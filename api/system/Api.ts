import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { AdminAuth } from "../admin/Api.ts"
import { ServiceUnavailable, Unauthorized } from "../errors.ts"

export const Readiness = Schema.Struct({
  status: Schema.Literals(["ready", "not_ready"]),
  /** Which system of record this process uses: the embedded DuckDB file, or PostgreSQL (DATABASE_URL). */
  store: Schema.Literals(["duckdb", "postgres"]),
  checks: Schema.Struct({
    database: Schema.Boolean,
    meilisearch: Schema.Boolean,
    catalog: Schema.Boolean,
    /** The category and brand names search reads phrases with, loaded from the index after the catalog was. */
    vocabulary: Schema.Boolean
  })
})

export class SystemApi extends HttpApiGroup.make("system", { topLevel: true })
  .add(
    HttpApiEndpoint.get("health", "/health", {
      success: Schema.Struct({ status: Schema.Literal("ok") })
    }).annotate(OpenApi.Description, "Liveness: the process is up and serving HTTP."),
    HttpApiEndpoint.get("ready", "/ready", {
      success: Readiness,
      error: ServiceUnavailable
    }).annotate(
      OpenApi.Description,
      "Readiness: the store (DuckDB, or PostgreSQL with DATABASE_URL) answers a query, Meilisearch reports healthy, the first ingest of an empty catalog has finished and the search vocabulary (category and brand names) has been loaded from the index after it, so the first search reads a phrase exactly as later ones do (503 otherwise: code not_ready or ingesting)."
    ),
    HttpApiEndpoint.get("metrics", "/metrics", {
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/plain; version=0.0.4" })),
      error: Unauthorized
    })
      // The counters describe traffic, partners' volumes and failures: an operator's view, not the public's.
      .middleware(AdminAuth)
      .annotate(
        OpenApi.Description,
        "Prometheus metrics: click queue, caches, pipeline runs. Requires Authorization: Bearer $ADMIN_TOKEN (401 " +
          "otherwise); with METRICS_PORT set, the same text is served without the token on that port of the loopback interface."
      )
  )
  .annotateMerge(OpenApi.annotations({ title: "System", description: "Health, readiness and metrics" })) {}
