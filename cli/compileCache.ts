import module from "node:module"

/**
 * Runs a command's module with Node's on-disk V8 code cache on: the few
 * hundred effect modules a command loads are read compiled instead of
 * compiled again, and start-up is most of a short command's time. An entry
 * point imports only this, so the cache is on before the command's modules
 * load (through `load`, a dynamic import).
 */
export const withCompileCache = (load: () => Promise<unknown>) => {
  module.enableCompileCache?.()
  return load()
}
