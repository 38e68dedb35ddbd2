// `npm start`: the service on the environment's configuration (ServeMain.ts).
import module from "node:module"

// Node's on-disk V8 code cache for the few hundred modules the service loads:
// module loading is most of the time to the first log line, and a restart (or
// a replica's start) reads compiled code instead of compiling it again.
// Enabled before anything else is imported, so the service comes in through a dynamic import.
module.enableCompileCache?.()
await import("./ServeMain.ts")
