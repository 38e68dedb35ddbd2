import { Effect } from "effect"
import { unavailable } from "../errors.ts"

/**
 * Storage failures at the edge: a 503 the client may retry, with the cause
 * logged (never the 500 of a defect). `who` names the caller in the log,
 * `store` what the client is told is unreachable.
 */
export const storageUnavailable =
  (who: string, store: string) =>
  <A, R>(effect: Effect.Effect<A, { readonly _tag: "DatabaseError" }, R>) =>
    effect.pipe(
      Effect.tapError((error) => Effect.logError(`${who}: database operation failed`, error)),
      Effect.mapError(() => unavailable("storage_unavailable", `${store} is not reachable; retry shortly`))
    )

export const orUnavailable = storageUnavailable("link service", "the link store")
