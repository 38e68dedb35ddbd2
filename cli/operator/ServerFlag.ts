import { Flag } from "effect/cli"

// One name for the server every operator command talks to: --server, with
// --url kept as an alias for the commands that used to spell it that way.
export const serverFlag = Flag.String("server").pipe(
  Flag.withAlias("url"),
  Flag.withDescription(
    "Server base URL (default http://$HOST:$PORT); alias --url. Without a server answering, the command reads the store itself"
  ),
  Flag.optional
)
