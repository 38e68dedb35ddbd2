import { Effect } from "effect"

// In-memory copies of store tables (the matcher's catalog, the exchange
// rates) are re-read on every catalog event and on demand (tests, tools), so
// two reads can overlap, and under load the one begun first can finish last.
// Installing whichever finished last would put the older read back over the
// newer one until the next event; so a read is installed only if no read
// begun after it has been installed already.

/** `load`, whose result reaches `install` only if no run of it begun later has been installed. */
export const latestLoad = <A, E, R>(
  load: Effect.Effect<A, E, R>,
  install: (value: A) => void
): Effect.Effect<void, E, R> => {
  let begun = 0
  let installed = 0
  return Effect.suspend(() => {
    const ticket = ++begun
    return Effect.map(load, (value) => {
      if (ticket < installed) return
      installed = ticket
      install(value)
    })
  })
}
