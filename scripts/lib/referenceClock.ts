import { Clock, Effect } from "effect"

/**
 * Effect's own clock with the calendar moved by `offsetMs()`: time passes at
 * its real pace (sleeps, timeouts and elapsed-time measures are the real
 * clock's), only the dates read differ.
 */
const shiftedClock = (offsetMs: () => number): Clock.Clock => {
  const real = Effect.runSync(Clock.clockWith(Effect.succeed))
  const millis = () => Date.now() + offsetMs()
  return {
    currentTimeMillisUnsafe: millis,
    currentTimeMillis: Effect.sync(millis),
    currentTimeNanosUnsafe: () => BigInt(millis()) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(millis()) * 1_000_000n),
    monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: real.monotonicTimeNanos,
    sleep: (duration) => real.sleep(duration)
  }
}

/**
 * A clock whose dates read as if "now" had been `referenceMs` at the moment
 * it was made. A catalog whose sale windows and price history were written
 * for one instant (the samples' AS_OF) then loads the same way on any day the
 * suite runs.
 */
export const referenceClock = (referenceMs: number): Clock.Clock => {
  const offsetMs = referenceMs - Date.now()
  return shiftedClock(() => offsetMs)
}

/**
 * A clock whose calendar a test moves as it goes (`moveTo` the day a fixture
 * describes): a month later in an instant, whatever day the suite runs.
 */
export const movableCalendar = () => {
  let offsetMs = 0
  return {
    clock: shiftedClock(() => offsetMs),
    moveTo: (iso: string) => void (offsetMs = Date.parse(iso) - Date.now())
  }
}
