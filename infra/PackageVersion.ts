import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

// The service's version as package.json states it, read once at start-up, so
// what /openapi.json and /docs announce cannot drift from the release.
const packageFile = join(dirname(fileURLToPath(import.meta.url)), "..", "package.json")

export const PACKAGE_VERSION: string = (JSON.parse(readFileSync(packageFile, "utf8")) as { version: string }).version
