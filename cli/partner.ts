// Narrow imports: the package index also loads the HTTP server, sockets and
// workers, which more than doubles the CLI's start-up time.
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect } from "effect"
import { Command } from "effect/cli"
import { FetchHttpClient } from "effect/http"
import { init } from "./partner/commands/init.ts"
import { links } from "./partner/commands/links.ts"
import { match } from "./partner/commands/match.ts"
import { networks } from "./partner/commands/networks.ts"
import { programs } from "./partner/commands/programs.ts"
import { search } from "./partner/commands/search.ts"
import { stats } from "./partner/commands/stats.ts"

// `npm run partner -- <command>`: the partner CLI. It only speaks HTTP to a
// running service (`npm start`), never opens the DuckDB file itself.
// Failures print one clear sentence on stderr (see partner/errors.ts) and
// exit with code 1.
const partner = Command.make("partner").pipe(
  Command.withDescription(
    "Affiliate link service from the command line. Server: --url, AFFILIATE_API_URL, or the URL saved by `init`. " +
      "Key: AFFILIATE_API_KEY or the key saved by `init`. Config file: AFFILIATE_CLI_CONFIG or ~/.config/affiliate-cli/config.json."
  ),
  Command.withSubcommands([init, match, links, stats, search, networks, programs])
)

partner.pipe(
  Command.run({ version: "0.1.0" }),
  Effect.provide(FetchHttpClient.layer),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain
)
