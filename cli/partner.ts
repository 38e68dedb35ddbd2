#!/usr/bin/env node
// `aff`: the partner CLI (package.json "bin", so `npx aff`; also `npm run cli -- <command>`).
import module from "node:module"

// Node's on-disk V8 code cache for the few hundred effect modules the CLI
// loads: start-up is most of a command's time, and this roughly halves it
// (npm run bench:cli-startup). Enabled before anything else is imported, so
// the command tree comes in through a dynamic import.
module.enableCompileCache?.()
await import("./partner/app.ts")
