import type { Worker } from "node:worker_threads"

// Keeps one worker thread running: when it dies (a defect, out of memory),
// `onDeath` learns why and a new one is started, each time after every
// message the dead one posted has been delivered. Node emits a worker's
// 'error' as soon as it reaches the parent, which can be before messages the
// worker posted earlier (measured: with the parent's event loop busy while the
// worker posts and dies, 'error' came first in 50 of 50 runs); 'exit' comes
// after them. So the restart waits for 'exit': the click worker's successor
// starts after the segment its predecessor sealed, and the clicks it had
// journaled are counted as journaled, not lost.

export interface Supervised {
  readonly current: () => Worker
  /** Stops the running worker; none is started after it. */
  readonly stop: () => Promise<void>
}

export const superviseWorker = <Message>(
  start: () => Worker,
  onMessage: (message: Message) => void,
  onDeath: (error: unknown) => void
): Supervised => {
  let stopping = false
  const launch = (): Worker => {
    const worker = start()
    let failure: unknown
    worker.on("message", onMessage)
    worker.on("error", (error) => {
      failure = error
    })
    worker.on("exit", (code) => {
      if (stopping) return
      onDeath(failure ?? new Error(`worker exited with code ${code}`))
      running = launch()
    })
    return worker
  }
  let running = launch()
  return {
    current: () => running,
    stop: async () => {
      stopping = true
      await running.terminate()
    }
  }
}
