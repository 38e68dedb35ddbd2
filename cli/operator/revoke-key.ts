// `npm run partners:revoke`: revokes a partner's API key (cli/operator/revokeKeyCommand.ts).
import { withCompileCache } from "../compileCache.ts"

await withCompileCache(() => import("./revokeKeyCommand.ts"))
