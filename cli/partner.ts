#!/usr/bin/env node
// `aff`: the partner CLI (package.json "bin", so `npx aff`; also `npm run cli -- <command>`).
// The code cache roughly halves a command's start-up (npm run bench:cli-startup).
import { withCompileCache } from "./compileCache.ts"

await withCompileCache(() => import("./partner/app.ts"))
