import { Clock, Effect, Layer } from "effect"

/**
 * Effect's own clock, except that dates read as if "now" had been
 * `referenceMs` at the moment the clock was made: time still passes at its
 * real pace (sleeps, timeouts and elapsed-time measures are the real clock's),
 * only the calendar is moved. A catalog whose sale windows and price history
 * were written for one instant (the samples' AS_OF) then loads the same way on
 * any day the suite runs.
 *
 * `wallNow` is the wall clock the offset is taken from; a test passes another
 * one to show that the day it runs on makes no difference.
 */
export const referenceClock = (referenceMs: number, wallNow: () => number = Date.now): Clock.Clock => {
  const real = Effect.runSync(Clock.clockWith(Effect.succeed))
  const offsetMs = referenceMs - wallNow()
  const millis = () => wallNow() + offsetMs
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

/** The layer that puts a reference clock under a service. */
export const referenceClockLayer = (referenceMs: number, wallNow?: () => number) =>
  Layer.succeed(Clock.Clock, referenceClock(referenceMs, wallNow))
