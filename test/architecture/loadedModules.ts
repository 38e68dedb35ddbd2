// Preloaded with `node --import` by startupModules.test.ts: imports the
// modules named in LOADED_MODULES_OF (a JSON array of specifiers, relative to
// the repository), then prints every module Node loaded, one URL a line.
import module from "node:module"

const loaded: Array<string> = []
module.registerHooks({
  load(url, context, nextLoad) {
    loaded.push(url)
    return nextLoad(url, context)
  }
})

const root = new URL("../../", import.meta.url)
for (const specifier of JSON.parse(process.env.LOADED_MODULES_OF ?? "[]") as Array<string>) {
  await import(specifier.startsWith(".") ? new URL(specifier, root).href : specifier)
}
process.stdout.write(loaded.join("\n") + "\n")
