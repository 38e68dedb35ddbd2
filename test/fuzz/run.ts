// npm run fuzz: the suite's fuzz test (test/fuzz/openapi.test.ts) for longer,
// with a random seed, through vitest, so the service starts exactly as in the
// suite (its global setup starts Meilisearch, and PostgreSQL for the
// postgres store).
//
//   FUZZ_SECONDS  how long to generate requests (default 300)
//   FUZZ_SEED     the seed (default: random, printed at the start and with any finding)
//   FUZZ_STORE    duckdb (default) or postgres
//   FUZZ_SKIP_CHECKS  checks to leave out, comma-separated (test/fuzz/checks.ts)
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

const store = process.env.FUZZ_STORE ?? "duckdb"
if (store !== "duckdb" && store !== "postgres") {
  console.error(`FUZZ_STORE must be duckdb or postgres, got ${JSON.stringify(store)}`)
  process.exit(2)
}
const seconds = process.env.FUZZ_SECONDS ?? "300"
const vitest = fileURLToPath(new URL("../../node_modules/vitest/vitest.mjs", import.meta.url))
const child = spawn(process.execPath, [vitest, "run", "test/fuzz/openapi.test.ts", "--project", store], {
  stdio: "inherit",
  env: { ...process.env, FUZZ_SECONDS: seconds }
})
child.on("exit", (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)))
