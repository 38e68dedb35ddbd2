import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { feedsJsonSchema, REPO_ROOT } from "../../pipelines/FeedConfig.ts"

// Regenerates config/feeds.schema.json from the Schema rule (npm run feeds:schema).
writeFileSync(join(REPO_ROOT, "config", "feeds.schema.json"), feedsJsonSchema())
console.log("wrote config/feeds.schema.json")
