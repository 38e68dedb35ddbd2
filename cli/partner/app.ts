// The `aff` command tree (entry point: cli/partner.ts). It only speaks HTTP
// to a running service (`npm start`), never opens the DuckDB file itself.
// Exit codes and error lines: main.ts.
//
// Narrow imports: the package index also loads the HTTP server, sockets and
// workers, which more than doubles the CLI's start-up time.
import { Command } from "effect/cli"
import { init } from "./commands/init.ts"
import { exportCsv } from "./commands/export.ts"
import { keys } from "./commands/keys.ts"
import { link } from "./commands/link.ts"
import { links } from "./commands/links.ts"
import { match } from "./commands/match.ts"
import { mcp } from "./commands/mcp.ts"
import { networks } from "./commands/networks.ts"
import { programs } from "./commands/programs.ts"
import { search } from "./commands/search.ts"
import { stats } from "./commands/stats.ts"
import { runPartnerCli } from "./main.ts"
import { CLI_NAME } from "./name.ts"

const aff = Command.make(CLI_NAME).pipe(
  Command.withDescription(
    "Affiliate link service from the command line. Server: --server, AFF_SERVER, or the URL saved by `init`. " +
      "Key: AFF_API_KEY or the key saved by `init`. Config file: AFF_CONFIG, else $XDG_CONFIG_HOME/aff/config.json " +
      "or ~/.config/aff/config.json. Exit codes: 0 ok, 1 usage, 2 server or network, 3 not found / not matched."
  ),
  Command.withSubcommands([init, match, links, link, stats, exportCsv, search, networks, programs, mcp, keys])
)

runPartnerCli(aff, "0.2.0")
