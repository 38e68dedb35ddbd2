// `npm run runs` (also `npm run status`): recent pipeline runs (cli/operator/statusCommand.ts).
import { withCompileCache } from "../compileCache.ts"

await withCompileCache(() => import("./statusCommand.ts"))
