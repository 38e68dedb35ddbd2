import { Effect } from "effect"
import { unavailable } from "../errors.ts"

/** Storage failures at the edge: a 503 the client may retry, with the cause logged (never the 500 of a defect). */
export const orUnavailable = <A, R>(effect: Effect.Effect<A, { readonly _tag: "DatabaseError" }, R>) =>
  effect.pipe(
    Effect.tapError((error) => Effect.logError("link service: database operation failed", error)),
    Effect.mapError(() => unavailable("storage_unavailable", "the link store is not reachable; retry shortly"))
  )
