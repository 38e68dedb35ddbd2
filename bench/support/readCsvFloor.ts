import { DuckDBInstance } from "@duckdb/node-api"
import { join } from "node:path"
import { spillDirectory } from "../../infra/Database.ts"
import { readFirstLine, splitHeader } from "../../pipelines/products/stageDelimited.ts"

// The floor of our DuckDB stage: DuckDB's own read_csv of the feed into a
// table, in a database file of its own, with the threads and memory limit the
// service gives DuckDB. It runs in its own process so that its memory never
// counts in the pipeline's peak RSS. Two readings, each timed around its
// statement and a CHECKPOINT (our load is timed the same way, without opening
// the database; without the checkpoint a small table's rows would stay in the
// WAL, uncompressed, and look cheaper than they are):
// - `same`: the read our stage does (the header's columns, every one VARCHAR,
//   the same delimiter and quoting, no sniffing), all columns kept: the floor
//   the target is measured against, so the ratio counts only our own work;
// - `sniffed`: DuckDB's defaults (type sniffing), for reference.
// Arguments: file, work folder, threads, memory limit. Prints
// {"same": {"ms", "cpuMs"}, "sniffed": {"ms", "cpuMs"}, "rssMb"} as one JSON line.

const [file, work, threads, memoryLimit] = process.argv.slice(2)
const path = join(work, "floor.duckdb")
const instance = await DuckDBInstance.create(path, {
  threads,
  memory_limit: memoryLimit,
  temp_directory: spillDirectory(path)
})
const connection = await instance.connect()
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`
const columns = splitHeader(await readFirstLine(file, false), "\t")
const spec = `{${columns.map((name) => `${literal(name)}: 'VARCHAR'`).join(", ")}}`

const timed = async (sql: string) => {
  const started = performance.now()
  const cpu = process.cpuUsage()
  await connection.run(sql)
  await connection.run("CHECKPOINT")
  const used = process.cpuUsage(cpu)
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 }
}

const same = await timed(
  `CREATE TABLE feed AS SELECT * FROM read_csv(${literal(file)}, delim='\t', quote='"', escape='"', header=true,
     auto_detect=false, compression='none', columns=${spec})`
)
await connection.run("DROP TABLE feed")
await connection.run("CHECKPOINT")
const sniffed = await timed(`CREATE TABLE sniffed AS SELECT * FROM read_csv(${literal(file)}, delim='\t', header=true)`)
connection.closeSync()
instance.closeSync()
console.log(JSON.stringify({ same, sniffed, rssMb: Math.round(process.resourceUsage().maxRSS / 1024) }))
