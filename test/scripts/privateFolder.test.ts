import { chmodSync, mkdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import { postgresOwner, privateFolder } from "../../scripts/lib/privateFolder.ts"
import { tempDir } from "../support/TestService.ts"

// `npm run pg:local` kept its data folder 0777 (so that the `postgres` user
// could reach it when run as root); it is 0700 now, owned by that user then.
// (`npm run meili:local`'s folder: test/infra/meiliChildEnvironment.test.ts.)
const folder = tempDir("private-folder-")
afterAll(() => folder.rm())

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8)

it("creates the folder 0700 and narrows one left 0777 by an earlier run", () => {
  const fresh = join(folder.dir, "var", "postgres")
  privateFolder(fresh)
  expect(modeOf(fresh)).toBe("700")

  const earlier = join(folder.dir, "earlier")
  mkdirSync(earlier)
  chmodSync(earlier, 0o777)
  privateFolder(earlier)
  expect(modeOf(earlier)).toBe("700")
})

it("as root, hands the 0700 folder to the user PostgreSQL runs as", () => {
  const owner = postgresOwner()
  const dir = join(folder.dir, "owned")
  privateFolder(dir, owner)
  expect(modeOf(dir)).toBe("700")
  expect(statSync(dir).uid).toBe(owner?.uid ?? process.getuid?.())
})
