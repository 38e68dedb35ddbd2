import { defineConfig } from "vitest/config"
import { POSTGRES_ONLY, postgresSuites } from "./test/support/postgresSuites.ts"

export default defineConfig({
  test: {
    // One real Meilisearch for the whole run (each test file uses its own index
    // prefix), and one PostgreSQL when the postgres project runs.
    globalSetup: ["test/support/globalSetup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "duckdb", include: ["test/**/*.test.ts"], exclude: [POSTGRES_ONLY] } },
      {
        extends: true,
        test: {
          name: "postgres",
          include: [...postgresSuites],
          env: { TEST_STORE: "postgres" },
          setupFiles: ["test/support/postgresFile.ts"],
          globalSetup: ["test/support/postgresGlobalSetup.ts"]
        }
      }
    ]
  }
})
