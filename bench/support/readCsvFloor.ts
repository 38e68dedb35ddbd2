import { DuckDBInstance } from "@duckdb/node-api"
import { join } from "node:path"
import { spillDirectory } from "../../infra/Database.ts"

// The floor of our DuckDB stage: DuckDB's own read_csv of the feed into a
// table, in a database file of its own, with the threads and memory limit the
// service gives DuckDB. It runs in its own process so that its memory never
// counts in the pipeline's peak RSS. Arguments: file, work folder, threads,
// memory limit. Prints {"ms", "cpuMs", "rssMb"} as one JSON line.

const [file, work, threads, memoryLimit] = process.argv.slice(2)
const path = join(work, "floor.duckdb")
const started = performance.now()
const cpu = process.cpuUsage()
const instance = await DuckDBInstance.create(path, {
  threads,
  memory_limit: memoryLimit,
  temp_directory: spillDirectory(path)
})
const connection = await instance.connect()
await connection.run(
  `CREATE TABLE products AS SELECT * FROM read_csv('${file.replace(/'/g, "''")}', delim='\t', header=true)`
)
connection.closeSync()
instance.closeSync()
const ms = performance.now() - started
const used = process.cpuUsage(cpu)
console.log(
  JSON.stringify({
    ms,
    cpuMs: (used.user + used.system) / 1000,
    rssMb: Math.round(process.resourceUsage().maxRSS / 1024)
  })
)
