import { freshDatabaseUrl, testStore } from "./postgres.ts"

// Setup file of the postgres project: one database per test file, which
// `testConfig` (synchronous) points at; `startService` makes one per service.
if (testStore() === "postgres") process.env.TEST_FILE_DATABASE_URL = await freshDatabaseUrl()
