import type { IncomingMessage, ServerResponse } from "node:http"

/** A handler the node:http server asks before the Effect router; true when it answered the request. */
export type HotPathHandler = (req: IncomingMessage, res: ServerResponse) => boolean

/**
 * A hot path whose handler is set once the server runs: a handler that needs
 * what only the running server gives (its public URL) is built by a layer
 * beside the routes. Until then, and after that layer closes, it declines
 * every request, and the router answers.
 */
export const lateHotPath = () => {
  const decline: HotPathHandler = () => false
  let current = decline
  return {
    handle: ((req, res) => current(req, res)) satisfies HotPathHandler,
    set: (handler: HotPathHandler | undefined) => {
      current = handler ?? decline
    }
  }
}
export type LateHotPath = ReturnType<typeof lateHotPath>
