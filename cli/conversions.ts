// `npm run conversions`: conversions, revenue and reconciliation (cli/conversionsCommand.ts).
import { withCompileCache } from "./compileCache.ts"

await withCompileCache(() => import("./conversionsCommand.ts"))
