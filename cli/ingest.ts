// `npm run ingest`: runs feeds now (cli/ingestCommand.ts).
import { withCompileCache } from "./compileCache.ts"

await withCompileCache(() => import("./ingestCommand.ts"))
